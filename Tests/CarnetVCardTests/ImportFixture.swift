import CarnetStore
import CarnetStoreSQLite
import Foundation
import Testing

@testable import CarnetVCard

/// A store in a temporary SQLite file (WAL, as a server runs it), with import and export helpers. Removes its
/// files when done.
final class ImportFixture: Sendable {
    let store: any ContactStore
    let directory: URL

    init(configuration: StoreConfiguration = StoreConfiguration()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-vcard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore.open(
            path: directory.appendingPathComponent("carnet.sqlite").path, configuration: configuration)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Imports text (UTF-8) or bytes.
    @discardableResult
    func importText(
        _ text: String, strict: Bool = false, batchSize: Int = 1000, readsAhead: Bool = false
    ) async throws -> VCardImporter.Summary {
        try await importData(Data(text.utf8), strict: strict, batchSize: batchSize, readsAhead: readsAhead)
    }

    @discardableResult
    func importData(
        _ data: Data, strict: Bool = false, batchSize: Int = 1000, readsAhead: Bool = false
    ) async throws -> VCardImporter.Summary {
        var importer = VCardImporter(store: store, transactionAuthor: "test-import", strict: strict)
        importer.batchSize = batchSize
        importer.readsAhead = readsAhead
        return try await importer.importCards(data)
    }

    /// Every contact as a vCard file.
    func export(_ version: VCardWriter.Version = .v3, groups: VCardExporter.GroupStyle? = nil) async throws -> String {
        var text = ""
        try await VCardExporter(store: store, version: version, groupStyle: groups).export { text += $0 }
        return text
    }

    /// Every contact with every key.
    func contacts() async throws -> [Contact] {
        try await store.contacts(ContactFetchRequest(keysToFetch: .all, sortOrder: .none, page: .first(1000))).contacts
    }

    func contact(named given: String) async throws -> Contact {
        try #require(try await contacts().first { $0.givenName == given })
    }

    /// Group names by contact given name.
    func groupNames(of given: String) async throws -> [String] {
        let contact = try await contact(named: given)
        return (try await store.groups(ofContacts: [contact.identifier])[contact.identifier] ?? []).map(\.name).sorted()
    }
}
