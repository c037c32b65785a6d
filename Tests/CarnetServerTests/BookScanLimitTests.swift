import CarnetServer
import Foundation
import Testing

/// `duplicateCandidates` reads a whole book, and a request may do that once (`maxBookScans`). The planner counts
/// the fields it names; under `addressBooks` one field is as many reads as the list has books, which an outside
/// tester used to read every book the token could open in one request.
@Suite("Whole-book reads per request")
struct BookScanLimitTests {
    @Test("duplicateCandidates under addressBooks reads one book; a second is MAX_BOOK_SCANS_EXCEEDED")
    func throughTheBookList() async throws {
        try await withRouter { server, client in
            let alice = try await server.app.backend.catalog.createPrincipal(name: "alice")
            let token = try await server.token(for: alice)
            var ids: [String] = []
            for name in ["B", "C"] {
                let created = try await client.graphql(
                    "mutation($name: String!) { createAddressBook(name: $name) { id } }", variables: ["name": name],
                    token: token)
                let book = (created.json["data"] as? [String: Any])?["createAddressBook"] as? [String: Any]
                ids.append(try #require(book?["id"] as? String))
            }
            let listed = try await client.graphql("{ addressBooks { id } }", token: token)
            #expect(listed.errorCodes.isEmpty)
            #expect(((listed.json["data"] as? [String: Any])?["addressBooks"] as? [Any])?.count == 3)

            let all = try await client.graphql(
                "{ addressBooks { id duplicateCandidates { totalCount } } }", token: token)
            #expect(all.errorCodes == ["MAX_BOOK_SCANS_EXCEEDED"], "\(all.body.prefix(400))")

            let one = try await client.graphql(
                "query($id: ID!) { addressBook(id: $id) { duplicateCandidates { totalCount } } }",
                variables: ["id": ids[0]], token: token)
            #expect(one.errorCodes.isEmpty, "\(one.body.prefix(400))")
        }
    }
}
