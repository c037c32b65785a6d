import CarnetStore

extension Executor {
    /// Runs `body` on the book's store: opened (held for the duration), with the batch-loaded relations of the
    /// request's own book set aside, so nothing of one book is looked up in another.
    func inBook<T>(_ visible: VisibleBook, _ viewer: GraphQLViewer, _ body: () async throws -> T) async throws -> T {
        let bookStore = try await viewer.books.acquire(visible.book)
        let saved = (store, loads)
        (store, loads) = (bookStore, BatchLoads())
        defer { (store, loads) = saved }
        do {
            let result = consistentReads ? try await bookStore.withConsistentReads(body) : try await body()
            await viewer.books.release(visible.book.id)
            return result
        } catch {
            await viewer.books.release(visible.book.id)
            throw error
        }
    }

    /// Whether an address book's selection reads its records (and so needs its store open).
    static func readsRecords(_ fields: [FieldPlan]) -> Bool {
        fields.contains { AddressBookField(rawValue: $0.code)?.rootField != nil }
    }

    /// Writes an address book: its own fields, and those it shares with `Query` resolved on its store (which
    /// ``inBook(_:_:_:)`` has swapped in). `false` when a non-null field inside failed.
    func writeBook(_ visible: VisibleBook, _ viewer: GraphQLViewer, _ plan: FieldPlan) async throws -> Bool {
        let fields = plan.selection?.fields(for: "AddressBook") ?? []
        writer.beginObject()
        for sub in fields {
            guard let root = AddressBookField(rawValue: sub.code)?.rootField else {
                guard writeBookField(visible, isDefault: visible.book.id == viewer.defaultBookID, sub) else {
                    return false
                }
                continue
            }
            guard await nestedRootField(sub, root) else { return false }
        }
        writer.endObject()
        return true
    }

    /// A root-like field inside an address book: resolved, loaded and written as `rootField` does, at its path.
    private func nestedRootField(_ plan: FieldPlan, _ code: QueryField) async -> Bool {
        writer.rawKey(plan.quotedKey)
        path.append(.key(plan.responseKey))
        defer { path.removeLast() }
        return await resolvedField(plan) { try await resolve(code, plan) }
    }

    /// `addressBooks`: each book opened only when its selection reads records.
    func writeBooks(_ books: [VisibleBook], _ viewer: GraphQLViewer, _ plan: FieldPlan) async throws -> Bool {
        let opens = Self.readsRecords(plan.selection?.fields(for: "AddressBook") ?? [])
        writer.beginArray()
        for (index, visible) in books.enumerated() {
            writer.comma()
            path.append(.index(index))
            defer { path.removeLast() }
            let written =
                opens
                ? try await inBook(visible, viewer) { try await writeBook(visible, viewer, plan) }
                : try await writeBook(visible, viewer, plan)
            // Items are non-null: a failed one fails the list.
            guard written else { return false }
        }
        writer.endArray()
        return true
    }
}
