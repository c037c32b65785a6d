import Foundation

/// One address book's records: contacts, groups and containers, atomic save requests and change history.
///
/// This is the whole surface the layers above the store use (GraphQL, vCard, the server and the CLI); each
/// backend has one `Sendable` type behind it (`SQLiteStore` on the embedded default). A store is shared by every
/// request to its book: reads run concurrently and saves are serialized per book.
///
/// ```swift
/// var request = SaveRequest(transactionAuthor: "importer")
/// var contact = Contact()
/// contact.givenName = "Anna"
/// request.add(contact)
/// let result = try await store.execute(request)
/// ```
public protocol ContactStore: Sendable {
    /// The settings the store was opened with.
    var configuration: StoreConfiguration { get }

    // MARK: Contacts

    /// A page of contacts matching the request's predicate, in its sort order.
    func contacts(_ request: ContactFetchRequest) async throws -> ContactPage
    /// How many contacts match.
    func contactCount(matching predicate: ContactPredicate) async throws -> Int
    /// The identifiers of at most `limit` contacts the predicate matches, in no particular order: one query, for a
    /// caller that needs the whole set (a unified search's linked members).
    func contactIdentifiers(matching predicate: ContactPredicate, limit: Int) async throws -> [String]
    /// One contact, or ``StoreError/Code/recordDoesNotExist``.
    func contact(withIdentifier identifier: String, keysToFetch keys: ContactKeySet) async throws -> Contact
    /// Contacts by identifier, in the order asked, leaving out identifiers that name no contact.
    func contacts(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet) async throws -> [Contact]
    /// The sort order `.userDefault` stands for.
    func userDefaultSortOrder() async throws -> ContactSortOrder
    func setUserDefaultSortOrder(_ order: ContactSortOrder) async throws
    /// A page of pairs of contacts that are probably the same person, with their reasons and score: highest
    /// score first, then by the two identifiers. Keys shared by more than ``StoreLimits/duplicateKeySharers``
    /// contacts are no evidence. A bad page size or cursor throws ``StoreError/Code/predicateInvalid``.
    func duplicateCandidates(_ request: DuplicateCandidateRequest) async throws -> DuplicateCandidatePage
    /// The unified contacts that the identifiers name, by their own identifier or a member's, each once.
    func linkGroups(containing identifiers: [String]) async throws -> [LinkGroup]
    /// ``linkGroups(containing:)`` and their members other than those in `known`, read with
    /// ``UnifiedContact/memberKeys(for:)`` of `keys` (or more): what unifying contacts needs, which a backend
    /// whose every statement is a round trip reads at once. The default reads the groups, then the members.
    func linkGroupsAndMembers(containing identifiers: [String], known: Set<String>, keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact])
    /// What a read by identifier with unification on puts together: ``linkGroups(containing:)`` with every member
    /// (read as in ``linkGroupsAndMembers(containing:known:keys:)``), and the contacts named that are not linked,
    /// read with `keys` exactly. A backend may read them at once; the default reads the groups and members, then
    /// the others.
    func contactsToUnify(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet) async throws
        -> (groups: [LinkGroup], members: [String: Contact], unlinked: [Contact])

    // MARK: Containers

    /// Every container, the default first.
    func containers() async throws -> [Container]
    /// Containers by identifier, leaving out identifiers that name none.
    func containers(withIdentifiers identifiers: [String]) async throws -> [Container]
    /// The container that adds without one go to.
    func defaultContainer() async throws -> Container
    func container(ofContact identifier: String) async throws -> Container
    func container(ofGroup identifier: String) async throws -> Container
    /// Adds a container (an account), keeping its identifier.
    func addContainer(_ container: Container) async throws -> Container

    // MARK: Groups

    /// The groups of one container, or of all when `container` is `nil`.
    func groups(inContainer container: String?) async throws -> [Group]
    func groups(withIdentifiers identifiers: [String]) async throws -> [Group]
    func group(withIdentifier identifier: String) async throws -> Group
    func groupCount(inContainer container: String?) async throws -> Int
    /// The groups each contact belongs to.
    func groups(ofContacts identifiers: [String]) async throws -> [String: [Group]]
    /// The members of several groups, each list in `sortOrder` and at most `limit` long.
    func members(
        ofGroups identifiers: [String], keysToFetch keys: ContactKeySet, sortOrder: ContactSortOrder, limit: Int?
    ) async throws -> [String: [Contact]]
    func memberCounts(ofGroups identifiers: [String]) async throws -> [String: Int]

    // MARK: vCard support

    /// The contacts whose kept vCard UID is one of `uids`, each with the UID it keeps. UIDs compare byte for byte:
    /// pairs, not a dictionary keyed by `String`, whose equality would take "x-é" and "x-e\u{301}" for one UID.
    func contactIdentifiers(keepingVCardUIDs uids: [String]) async throws -> [(uid: String, contact: String)]
    /// Whether any contact keeps a vCard UID different from its identifier.
    func hasContactsKeepingVCardUIDs() async throws -> Bool
    /// Which of these identifiers an add could not take: in use (by any record or value) or retired. A group card
    /// whose UID named a live contact took it as the group's identifier, and the group was lost (an outside
    /// tester's find): contacts count too.
    func unavailableIdentifiers(_ identifiers: [String]) async throws -> Set<String>

    // MARK: Saving

    /// Runs one save request atomically: all of it is written, or nothing and an error.
    @discardableResult func execute(_ request: SaveRequest) async throws -> SaveResult
    /// Runs several save requests as one commit.
    @discardableResult func execute(atomically requests: [SaveRequest]) async throws -> SaveResult

    // MARK: Change history

    /// Change history since a token, coalesced per record (TN3149).
    func changeHistory(_ request: ChangeHistoryFetchRequest) async throws -> ChangeHistoryPage
    /// The token for "now".
    func currentHistoryToken() async throws -> String
    /// The oldest token still valid.
    func oldestValidHistoryToken() async throws -> String
    /// Deletes history older than `cutoff` (the configured retention when `nil`); returns the events deleted.
    @discardableResult func compactHistory(olderThan cutoff: Date?) async throws -> Int
    /// Every commit to the book from now on, this process's and other processes' and instances'.
    func changes() async -> StoreChanges

    // MARK: Consistency

    /// Runs `body` with every read of this book inside it seeing one state of the book, as one GraphQL query's
    /// fields must (a group's `memberCount` and its `members` agree although saves commit meanwhile). Each read
    /// method is one state on its own; this makes several one. Saves are not allowed inside. Nested calls run in
    /// the outer state. Should the snapshot not start (the database refuses), `body` runs with reads as without.
    func withConsistentReads<T>(_ body: () async throws -> T) async throws -> T

    // MARK: Maintenance

    /// Writes a consistent copy of the book to `path` while it stays in use.
    func backup(to path: String) async throws
    /// Sizes for monitoring.
    func statistics() async throws -> StoreStatistics
    /// Releases the store; it must not be used afterwards.
    func close() async throws
}

extension ContactStore {
    /// Contacts by identifier, in the order asked, with unification on or off: with it, a member's or a unified
    /// contact's identifier gives the unified contact (once).
    public func contacts(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet, unify: Bool)
        async throws -> [Contact]
    {
        guard unify else { return try await contacts(withIdentifiers: identifiers, keysToFetch: keys) }
        return try await UnifiedFetch.contacts(withIdentifiers: identifiers, keysToFetch: keys, in: self)
    }

    /// How many contacts the book holds.
    public func contactCount() async throws -> Int { try await contactCount(matching: .all) }

    /// Every group of the book.
    public func groups() async throws -> [Group] { try await groups(inContainer: nil) }

    public func groupCount() async throws -> Int { try await groupCount(inContainer: nil) }

    public func members(
        ofGroups identifiers: [String], keysToFetch keys: ContactKeySet, sortOrder: ContactSortOrder = .none
    ) async throws -> [String: [Contact]] {
        try await members(ofGroups: identifiers, keysToFetch: keys, sortOrder: sortOrder, limit: nil)
    }

    /// Deletes history older than the configured retention.
    @discardableResult public func compactHistory() async throws -> Int { try await compactHistory(olderThan: nil) }
}

/// Sizes of a store, for monitoring.
public struct StoreStatistics: Sendable, Hashable {
    public var contacts: Int
    public var groups: Int
    /// The bytes the book's data takes on disk, 0 in memory.
    public var databaseBytes: Int

    public init(contacts: Int, groups: Int, databaseBytes: Int) {
        self.contacts = contacts
        self.groups = groups
        self.databaseBytes = databaseBytes
    }
}
