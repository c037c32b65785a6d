import CarnetGraphQL
import CarnetStore
import Testing

@Suite("GraphQL smoke")
struct SmokeTests {
    @Test("Create contacts with a save and read them back")
    func createAndRead() async throws {
        let fixture = try GraphQLFixture()
        let saved = try await fixture.data(
            """
            mutation Save($request: SaveRequestInput!) {
              save(request: $request) { revision historyToken contacts { id givenName familyName emailAddresses { identifier label value } } }
            }
            """,
            [
                "request": .object([
                    "transactionAuthor": "test",
                    "operations": .array([
                        .object([
                            "addContact": .object([
                                "givenName": "Anna", "familyName": "Smith",
                                "emailAddresses": .array([.object(["label": "home", "value": "anna@example.com"])]),
                            ])
                        ]),
                        .object(["addContact": .object(["givenName": "Bob", "familyName": "Jones"])]),
                    ]),
                ])
            ])
        print(saved.json)
        let page = try await fixture.data(
            """
            { contacts(first: 10, sortOrder: FAMILY_NAME) { totalCount edges { cursor node { __typename id displayName givenName emailAddresses { label value } groups { name } container { name type } } } pageInfo { hasNextPage endCursor } } }
            """)
        print(page.json)
        #expect(page["contacts"]?["totalCount"] == 2)
    }
}
