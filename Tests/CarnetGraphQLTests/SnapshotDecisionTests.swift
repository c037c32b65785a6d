import CarnetStore
import Testing

@testable import CarnetGraphQL
@testable import CarnetStoreSQLite

/// Which queries hold a snapshot of their book: those that may read it more than once. A snapshot takes a
/// connection for the whole query, and when a book's are all taken it opens one of its own (a millisecond): a
/// contact by id in a named book paid that on every request under load although it reads once.
@Suite("Snapshot decision")
struct SnapshotDecisionTests {
    static let cases: [(document: String, snapshot: Bool)] = [
        ("{ contact(id: \"c\") { givenName emailAddresses { value } } }", false),
        ("{ contact(id: \"c\") { givenName groups { name } } }", true),
        ("{ addressBook(id: \"b\") { contact(id: \"c\") { givenName familyName emailAddresses { value } } } }", false),
        ("{ addressBook(id: \"b\") { name access contact(id: \"c\") { givenName } } }", false),
        ("{ addressBook(id: \"b\") { contact(id: \"c\") { givenName linkedContacts { id } } } }", true),
        (
            "{ addressBook(id: \"b\") { a: contact(id: \"c\") { givenName } b: contact(id: \"d\") { givenName } } }",
            true
        ),
        ("{ addressBook(id: \"b\") { contacts(first: 5) { totalCount } } }", true),
        ("{ addressBook(id: \"b\") { currentHistoryToken } }", false),
        ("{ addressBook(id: \"b\") { name } }", false),
        ("{ addressBook(id: \"b\") { changeHistory { events { __typename author } } } }", false),
        (
            "{ addressBook(id: \"b\") { changeHistory { events { ... on AddContactEvent { contact { groups { id } } } } } } }",
            true
        ),
        ("{ contacts(first: 5) { nodes { id } } }", true),
        ("{ contact(id: \"c\") { givenName } currentHistoryToken }", true),
        ("{ __typename addressBook(id: \"b\") { contact(id: \"c\") { id } } }", false),
    ]

    @Test("A query holds a snapshot only if it may read its book more than once", arguments: cases)
    func decision(document: String, snapshot: Bool) throws {
        let service = GraphQLService(store: try SQLiteStore.inMemory(), limits: .unhurried)
        let operation = try service.operation(for: GraphQLRequestBody(query: document))
        let fields = try service.makeExecutor(operation, GraphQLRequestContext()).planRoot()
        #expect(Executor.readsMoreThanOnce(fields) == snapshot, "\(document)")
    }
}
