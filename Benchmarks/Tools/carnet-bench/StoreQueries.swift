import CarnetStore
import CarnetStoreSQLite

/// Each benchmarked read, through Carnet's public API: generic over `ContactStore`, so the backend comparison
/// (`--backends`) times SQLite and PostgreSQL through the same calls.
enum StoreQueries {
    /// The 8 keys of "fetch by id".
    static let fetchKeys: ContactKeySet = [
        .givenName, .familyName, .organizationName, .jobTitle, .birthday, .phoneNumbers, .emailAddresses,
        .postalAddresses,
    ]
    /// The keys of a list row: searches and pages.
    static let listKeys: ContactKeySet = [.givenName, .familyName]

    static func fetchByID(_ store: some ContactStore, _ id: String) async throws -> Int {
        let contact = try await store.contact(withIdentifier: id, keysToFetch: fetchKeys)
        return 1 + contact.phoneNumbers.count + contact.emailAddresses.count + contact.postalAddresses.count
    }

    /// A search: the first page of 50 matches sorted by family name.
    static func search(_ store: some ContactStore, _ predicate: ContactPredicate) async throws -> Int {
        try await store.contacts(
            ContactFetchRequest(
                predicate: predicate, keysToFetch: listKeys, sortOrder: .familyName, page: .first(50))
        ).contacts.count
    }

    /// A page, and the cursor of its last contact to ask for the next one.
    static func page(_ store: some ContactStore, after cursor: String?) async throws -> Int {
        let page = try await store.contacts(
            ContactFetchRequest(
                keysToFetch: listKeys, sortOrder: .familyName, page: .first(50, after: cursor)))
        if !page.contacts.isEmpty { _ = page.cursor(at: page.contacts.count - 1) }
        return page.contacts.count
    }

    /// The family-name-order cursor of a contact, to start a page right after it.
    static func cursor(_ store: some ContactStore, after id: String) async throws -> String? {
        try await store.contacts(
            ContactFetchRequest(
                predicate: .withIdentifiers([id]), keysToFetch: [], sortOrder: .familyName, page: .first(1))
        ).cursors.first
    }
}
