import CarnetStore
import CarnetVCard
import Foundation

extension Executor {
    /// `importVCards`: the vCard importer, its author checked like a save's.
    func importVCards(_ plan: FieldPlan) async throws -> Bool {
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
        let summary: VCardImporter.Summary
        do {
            summary = try await importer.importCards(Data((arguments.string("data") ?? "").utf8))
            markCommitted()
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
