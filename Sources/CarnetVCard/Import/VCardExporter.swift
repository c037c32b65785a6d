import CarnetStore
import Foundation

/// Writes contacts out as vCards: all of them or one group's, page by page, with their groups and the
/// properties kept from their import.
///
/// Groups go out as CATEGORIES on their members' cards (what Google, Android, Outlook and most readers take),
/// as group cards before the contacts (4.0's `KIND:group`, or in 3.0 Apple's `X-ADDRESSBOOKSERVER-KIND:group`,
/// what iCloud and macOS write), or both. Import reads both and takes their union, so either form, or both,
/// comes back as the same memberships, but for groups that share a name, which only group cards tell apart; see
/// ``GroupStyle``.
public struct VCardExporter: Sendable {
    /// How groups are written.
    public enum GroupStyle: String, Sendable, CaseIterable {
        /// CATEGORIES on each contact's card.
        case categories
        /// Group cards before the contacts, naming their members by UID.
        case cards
        /// Both: CATEGORIES and group cards.
        case both
    }

    public let store: any ContactStore
    public var version: VCardWriter.Version
    /// CATEGORIES for 3.0; both forms for 4.0, where group cards are the standard's and CATEGORIES what most
    /// readers still look for.
    public var groupStyle: GroupStyle

    public init(store: any ContactStore, version: VCardWriter.Version = .v3, groupStyle: GroupStyle? = nil) {
        self.store = store
        self.version = version
        self.groupStyle = groupStyle ?? (version == .v3 ? .categories : .both)
    }

    /// Writes the group cards when the style asks for them (first, so an import creates each group under its
    /// UID before the CATEGORIES that name it), then every contact (or one group's members), calling `output`
    /// with each chunk of text.
    /// - Returns: how many contact cards were written.
    /// - Throws: `recordDoesNotExist` when `groupIdentifier` names no group.
    ///
    /// Every read is of one state of the book (``ContactStore/withConsistentReads(_:)``): read page by page as saves
    /// committed, a card showed a save's membership without its update in the same save (an outside tester's
    /// find).
    @discardableResult
    public func export(groupIdentifier: String? = nil, output: (String) throws -> Void) async throws -> Int {
        try await store.withConsistentReads { try await exportAll(groupIdentifier, output) }
    }

    private func exportAll(_ groupIdentifier: String?, _ output: (String) throws -> Void) async throws -> Int {
        // A group that is not there is no empty group: an export of it wrote nothing and succeeded.
        if let groupIdentifier, try await store.groups(withIdentifiers: [groupIdentifier]).isEmpty {
            throw StoreError(.recordDoesNotExist, "No group has this identifier.", affected: [groupIdentifier])
        }
        let writer = VCardWriter(version: version)
        if groupStyle != .categories { try await exportGroupCards(groupIdentifier, writer, output) }
        var cursor: String?
        var count = 0
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: ContactPredicate(groupIdentifier: groupIdentifier), keysToFetch: .all, sortOrder: .none,
                    page: .first(1000, after: cursor)))
            let groups =
                groupStyle == .cards ? [:] : try await store.groups(ofContacts: page.contacts.map(\.identifier))
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

    /// The group cards, by group name; members by UID, sorted, so the same store always writes the same text.
    private func exportGroupCards(
        _ groupIdentifier: String?, _ writer: VCardWriter, _ output: (String) throws -> Void
    ) async throws {
        let groups =
            if let groupIdentifier {
                try await store.groups(withIdentifiers: [groupIdentifier])
            } else {
                try await store.groups()
            }
        for start in stride(from: 0, to: groups.count, by: 100) {
            let chunk = groups[start..<min(start + 100, groups.count)]
            let members = try await store.members(ofGroups: chunk.map(\.identifier), keysToFetch: [.vCardProperties])
            let uids = members.mapValues { $0.map(Self.uid).sorted() }
            let taken = try await takenUIDs(Array(Set(uids.values.joined().flatMap(UIDReference.alternatives))))
            var text = ""
            for group in chunk {
                text += writer.writeGroup(
                    name: group.name, uid: group.identifier, memberUIDs: uids[group.identifier] ?? [],
                    isTaken: taken.contains)
            }
            try output(text)
        }
    }

    /// Which of `uids` a contact's card of the book carries (``uid(_:)``): a kept UID, or the identifier of a
    /// contact that keeps none.
    private func takenUIDs(_ uids: [String]) async throws -> Set<String> {
        guard !uids.isEmpty else { return [] }
        var taken = Set<String>()
        for chunk in uids.chunked(StoreLimits.pageSize) {
            taken.formUnion(try await store.contactIdentifiers(keepingVCardUIDs: Array(chunk)).map(\.uid))
            for contact in try await store.contacts(withIdentifiers: Array(chunk), keysToFetch: [.vCardProperties])
            where Self.uid(contact) == contact.identifier {
                taken.insert(contact.identifier)
            }
        }
        return taken
    }

    /// One contact's card. Its UID is the one it was imported with when it keeps one (a UID that was no
    /// Carnet identifier, or that named a deleted contact), else its identifier.
    public static func card(_ contact: Contact, groups: [Group], writer: VCardWriter) -> String {
        let kept = contact.isKeyAvailable(.vCardProperties) ? contact.vCardProperties.map(\.value) : []
        return writer.write(
            contact, categories: groups.map(\.name), unmappedProperties: kept.filter { !KeptVCardLine.isUID($0) },
            uid: kept.lazy.compactMap(KeptVCardLine.uid(in:)).first)
    }

    /// The UID a contact's card carries.
    static func uid(_ contact: Contact) -> String {
        guard contact.isKeyAvailable(.vCardProperties),
            let uid = contact.vCardProperties.lazy.compactMap({ KeptVCardLine.uid(in: $0.value) }).first
        else { return contact.identifier }
        return uid
    }
}
