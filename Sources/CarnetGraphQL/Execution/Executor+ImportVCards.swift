import CarnetStore
import CarnetVCard
import Foundation

extension Executor {
    /// `importVCards`: the vCard importer, its author checked like a save's; on a service of many books, the
    /// caller's access to `bookID` checked again before each batch.
    func importVCards(_ plan: FieldPlan, bookID: String?) async throws -> Bool {
        let arguments = args(plan)
        let author: String?
        do {
            author = try context.authorizeAuthor(arguments.string("transactionAuthor"))
        } catch {
            throw FieldError(message: error.message, code: .forbidden)
        }
        var importer = VCardImporter(
            store: store, containerIdentifier: arguments.string("containerId"), transactionAuthor: author,
            strict: arguments.bool("strict") ?? false)
        importer.linkDuplicates = arguments.bool("linkDuplicates") ?? false
        importer.textIsDecoded = true
        importer.isAbandoned = context.isAbandoned
        if let viewer = context.viewer, let bookID {
            importer.checkAccess = { try await viewer.checkStillWritable(bookID) }
        }
        let summary: VCardImporter.Summary
        do {
            summary = try await importer.importCards(Data((arguments.string("data") ?? "").utf8))
            markCommitted()
        } catch let stopped as VCardImportStopped {
            throw stoppedImport(stopped)
        } catch let issue as VCardIssue {
            throw FieldError(
                message: issue.description, code: .vCardMalformed,
                extensions: ["line": .int(issue.line)])
        }
        writer.beginObject()
        for sub in plan.selection?.fields(for: "VCardImportResult") ?? [] {
            switch VCardImportResultField(rawValue: sub.code) {
            case .added?: leaf(sub) { $0.int(summary.added) }
            case .updated?: leaf(sub) { $0.int(summary.updated) }
            case .unchanged?: leaf(sub) { $0.int(summary.unchanged) }
            case .groupsCreated?: leaf(sub) { $0.int(summary.groupsCreated) }
            case .historyToken?: leaf(sub) { $0.string(summary.historyToken) }
            case .groupCards?: leaf(sub) { $0.int(summary.groupCards) }
            case .linked?: leaf(sub) { $0.int(summary.linked) }
            case .warnings?:
                let written = objects(sub, summary.warnings, type: "VCardImportWarning") { writer, warning, field in
                    switch VCardImportWarningField(rawValue: field.code) {
                    case .line?: writer.int(warning.line)
                    case .cardLine?: writer.int(warning.cardLine)
                    case .key?: writer.string(warning.key)
                    case .message?: writer.string(warning.message)
                    case nil: writer.string("VCardImportWarning")
                    }
                }
                guard written else { return false }
            case .skipped?:
                let written = objects(sub, summary.skipped, type: "VCardImportIssue") { writer, issue, field in
                    switch VCardImportIssueField(rawValue: field.code) {
                    case .line?: writer.int(issue.line)
                    case .message?: writer.string(issue.message)
                    case .cardLine?: writer.int(issue.cardLine)
                    case nil: writer.string("VCardImportIssue")
                    }
                }
                guard written else { return false }
            case nil: guard otherField(sub, "VCardImportResult") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    /// The error of an import stopped because its caller lost access, with what it saved before (a lenient
    /// import's batches stay): the answer is then the only word of those writes.
    private func stoppedImport(_ stopped: VCardImportStopped) -> FieldError {
        let saved = stopped.saved
        if saved.imported > 0 { markCommitted() }
        let cause =
            stopped.cause as? FieldError
            ?? (stopped.cause as? StoreError).map {
                FieldError(message: $0.cause ?? $0.message, code: ErrorCode($0.code))
            }
            ?? FieldError(message: "Access to this address book could not be checked.", code: ErrorCode(.unavailable))
        return FieldError(
            message:
                "\(cause.message) The import stopped: the \(saved.imported) cards saved before are kept, nothing after.",
            code: cause.code,
            extensions: [
                "added": .int(saved.added), "updated": .int(saved.updated), "unchanged": .int(saved.unchanged),
            ].merging(saved.historyToken.isEmpty ? [:] : ["historyToken": .string(saved.historyToken)]) { $1 })
    }

    /// A list of plain objects (`type`'s scalar fields only, so nothing in them can fail but a selection set that
    /// could not be collected): each selected field written by `value`. `false` when the list failed and is
    /// non-null.
    private func objects<T>(
        _ plan: FieldPlan, _ items: [T], type: String, _ value: (inout JSONWriter, T, FieldPlan) -> Void
    ) -> Bool {
        let fields = plan.selection?.fields(for: type) ?? []
        if let failure = fields.first, failure.collectionFailure != nil {
            return field(plan) { list(items, plan) { _ in otherField(failure, type) } }
        }
        leaf(plan) { writer in
            writer.beginArray()
            for item in items {
                writer.comma()
                writer.beginObject()
                for field in fields {
                    writer.rawKey(field.quotedKey)
                    value(&writer, item, field)
                }
                writer.endObject()
            }
            writer.endArray()
        }
        return true
    }
}
