import CarnetStore
import Foundation

/// Writes contacts out as vCards: all of them or one group's, page by page, with their groups as CATEGORIES and
/// the properties kept from their import.
public struct VCardExporter: Sendable {
    public let store: CarnetStore
    public var version: VCardWriter.Version

    public init(store: CarnetStore, version: VCardWriter.Version = .v3) {
        self.store = store
        self.version = version
    }

    /// Writes every contact (or one group's members), calling `output` with each chunk of text.
    /// - Returns: how many cards were written.
    @discardableResult
    public func export(groupIdentifier: String? = nil, output: (String) throws -> Void) async throws -> Int {
        let writer = VCardWriter(version: version)
        var cursor: String?
        var count = 0
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: ContactPredicate(groupIdentifier: groupIdentifier), keysToFetch: .all, sortOrder: .none,
                    page: .first(1000, after: cursor)))
            let groups = try await store.groups(ofContacts: page.contacts.map(\.identifier))
            var chunk = ""
            for contact in page.contacts {
                chunk += Self.card(contact, groups: groups[contact.identifier] ?? [], writer: writer)
            }
            try output(chunk)
            count += page.contacts.count
            cursor = page.hasNextPage ? page.cursors.last : nil
        } while cursor != nil
        return count
    }

    /// One contact's card: kept properties go back out, except a kept UID (the contact's identifier is its UID).
    public static func card(_ contact: Contact, groups: [Group], writer: VCardWriter) -> String {
        let kept =
            contact.isKeyAvailable(.vCardProperties)
            ? contact.vCardProperties.map(\.value).filter { !$0.uppercased().hasPrefix("UID:") } : []
        return writer.write(contact, categories: groups.map(\.name), unmappedProperties: kept)
    }
}
