import CarnetStore
import PostgresNIO

/// One `updateContact` operation of a batch, with its index in the save for errors.
struct PendingUpdate {
    let contact: Contact
    let operationIndex: Int

    /// Whether an update can go in a batch: text keys only (names, organization, title, note: the bulk edits of a
    /// clean-up or a sync) and no base revision, so no merge with what changed since decides anything.
    static func isBatchable(_ contact: Contact, baseRevision: Int64?) -> Bool {
        baseRevision == nil && !contact.modifiedKeys.isEmpty && contact.modifiedKeys.allSatisfy { $0.stringSlot != nil }
    }
}

extension PostgresSaveTransaction {
    /// Updates contacts as ``updateContact(_:baseRevision:alsoChanged:)`` does one by one, with the same values,
    /// revisions, name index and history, in a fixed number of statements: one by one, a save of 8,000 renames
    /// made 56,000 round trips and held the book's lock for 20 s or more. A run that names a contact twice, or an
    /// identifier that is no stored contact (a unified contact's, an unknown one), goes one by one, which gives
    /// its exact errors and routing.
    mutating func updateContacts(_ updates: [PendingUpdate]) async throws {
        guard !updates.isEmpty else { return }
        let identifiers = updates.map(\.contact.identifier)
        var stored: [String: PostgresStoredContact] = [:]
        if updates.count > 1, Set(identifiers).count == identifiers.count {
            stored = try await PostgresStoredContact.loadMany(self, identifiers: identifiers)
        }
        guard stored.count == updates.count else {
            for update in updates {
                do {
                    _ = try await apply(.updateContact(update.contact, baseRevision: nil))
                } catch let error as StoreError {
                    throw error.at(operation: update.operationIndex)
                }
            }
            return
        }
        var changed: [(contact: Contact, keys: [ContactKey], renamed: Bool)] = []
        for update in updates {
            guard var merged = stored[update.contact.identifier]?.contact else { continue }
            var keys: [ContactKey] = []
            for key in update.contact.modifiedKeys where merged.singleValueDiffers(key, from: update.contact) == true {
                guard let slot = key.stringSlot else { continue }
                merged.values.strings[slot] = update.contact.values.strings[slot]
                keys.append(key)
            }
            guard !keys.isEmpty else { continue }
            changed.append((merged, keys.sorted(), keys.contains { ContactKeySet.names.contains($0) }))
        }
        guard !changed.isEmpty else { return }
        try await writeUpdatedRows(changed.map { ($0.contact, $0.renamed) })
        let renamed = changed.filter(\.renamed).map(\.contact)
        if !renamed.isEmpty {
            // The prefix rows carry the sort keys, so they are written again even when the words are the same.
            try await removeNameIndex(renamed.map(\.identifier))
            try await insertNameIndexRows(renamed.map { (contact: $0.identifier, entry: NameIndexEntry($0)) })
            // A linked contact's names are its unified contact's too: in its words or in where it stands.
            renamedContacts.formUnion(renamed.map(\.identifier))
        }
        try await writeKeyRevisions(changed.flatMap { item in item.keys.map { (item.contact.identifier, $0) } })
        try await record(
            .updateContact, changed.map { (record: $0.contact.identifier, other: nil) }, keys: changed.map(\.keys))
    }

    /// Writes each contact's text keys, and the sort keys of the renamed ones, with this commit's revision: one
    /// statement. A key the update left alone is written as it was stored.
    private func writeUpdatedRows(_ rows: [(contact: Contact, renamed: Bool)]) async throws {
        var bindings = PostgresBindings()
        bindings.append(bookID)
        bindings.append(seq)
        bindings.append(now)
        bindings.append(rows.map(\.contact.identifier))
        bindings.append(rows.map(\.renamed))
        bindings.append(rows.map { ContactIndexing.sortKey($0.contact, .givenName) })
        bindings.append(rows.map { ContactIndexing.sortKey($0.contact, .familyName) })
        var assignments: [String] = []
        var arrays: [String] = []
        for (slot, key) in ContactKey.stringKeys.enumerated() {
            bindings.append(rows.map { $0.contact.values.strings[slot] })
            arrays.append("$\(bindings.count)::text[]")
            assignments.append("\(BookSchema.column(key)) = u.s\(slot)")
        }
        let aliases = ContactKey.stringKeys.indices.map { "s\($0)" }.joined(separator: ", ")
        try await run(
            PostgresQuery(
                unsafeSQL: """
                    UPDATE contact AS c SET \(assignments.joined(separator: ", ")),
                        sort_given = CASE WHEN u.renamed THEN u.sort_given ELSE c.sort_given END,
                        sort_family = CASE WHEN u.renamed THEN u.sort_family ELSE c.sort_family END,
                        revision = $2, modified_at = $3
                    FROM unnest($4::text[], $5::bool[], $6::text[], $7::text[], \(arrays.joined(separator: ", ")))
                        AS u(id, renamed, sort_given, sort_family, \(aliases))
                    WHERE c.book_id = $1 AND c.id = u.id
                    """, binds: bindings))
    }
}
