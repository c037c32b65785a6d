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
        let importer = VCardImporter(
            store: store, containerIdentifier: arguments.string("containerId"), transactionAuthor: author,
            strict: arguments.bool("strict") ?? false)
        let summary: VCardImporter.Summary
        do {
            summary = try await importer.importCards(Data((arguments.string("data") ?? "").utf8))
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
            case .warnings?:
                let warningFields = sub.selection?.fields(for: "VCardImportWarning") ?? []
                leaf(sub) { writer in
                    writer.beginArray()
                    for warning in summary.warnings {
                        writer.comma()
                        writer.beginObject()
                        for field in warningFields {
                            writer.rawKey(field.quotedKey)
                            switch VCardImportWarningField(rawValue: field.code) {
                            case .line?: writer.int(warning.line)
                            case .cardLine?: writer.int(warning.cardLine)
                            case .key?: writer.string(warning.key)
                            case .message?: writer.string(warning.message)
                            case nil: writer.string("VCardImportWarning")
                            }
                        }
                        writer.endObject()
                    }
                    writer.endArray()
                }
            case .skipped?:
                let issueFields = sub.selection?.fields(for: "VCardImportIssue") ?? []
                leaf(sub) { writer in
                    writer.beginArray()
                    for issue in summary.skipped {
                        writer.comma()
                        writer.beginObject()
                        for field in issueFields {
                            writer.rawKey(field.quotedKey)
                            switch VCardImportIssueField(rawValue: field.code) {
                            case .line?: writer.int(issue.line)
                            case .message?: writer.string(issue.message)
                            case .cardLine?: writer.int(issue.cardLine)
                            case nil: writer.string("VCardImportIssue")
                            }
                        }
                        writer.endObject()
                    }
                    writer.endArray()
                }
            case nil: _ = typename(sub, "VCardImportResult")
            }
        }
        writer.endObject()
        return true
    }
}
