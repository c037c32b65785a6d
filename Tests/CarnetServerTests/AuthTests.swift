import CarnetServer
import CarnetStore
import CarnetStoreSQLite
import Foundation
import Testing

@Suite("Authentication and authorisation")
struct AuthTests {
    static let addAnna =
        #"mutation($author: String) { save(request: {transactionAuthor: $author, operations: [{addContact: {givenName: "Anna"}}]}) { __typename } }"#

    @Test("No token or a bad one: 401 with WWW-Authenticate: Bearer")
    func unauthenticated() async throws {
        try await withRouter { server, client in
            let good = try await server.token()
            let none = try await client.graphql("{ __typename }", token: nil)
            #expect(none.status == 401)
            #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(none.errorCodes == ["UNAUTHENTICATED"])
            let tampered = String(good.dropLast()) + (good.last == "A" ? "B" : "A")
            for token in ["nonsense", tampered] {
                let bad = try await client.graphql("{ __typename }", token: token)
                #expect(bad.status == 401)
                #expect(bad.header("WWW-Authenticate")?.contains("invalid_token") == true)
            }
        }
    }

    @Test("Tokens are stored as SHA-256 hashes only, and revoked tokens stop working")
    func storageAndRevocation() async throws {
        try await withRouter { server, client in
            let (token, record) = try await server.app.tokens.create(name: "app", scopes: [.read])
            let stored = try #require(try await server.app.backend.catalog.accessToken(id: record.id)?.token)
            #expect(stored.secretHash.count == 32)
            #expect(
                !stored.secretHash.isEmpty
                    && !token.contains(stored.secretHash.map { String(format: "%02x", $0) }.joined()))
            for file in [DataFolder.catalogFileName, DataFolder.adminBookFileName] {
                let path = (server.app.configuration.dataDirectory as NSString).appendingPathComponent(file)
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                    let data = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
                    #expect(data.range(of: Data(token.suffix(43).utf8)) == nil)
                }
            }
            #expect(try await client.graphql("{ __typename }", token: token).status == 200)
            try await server.app.backend.catalog.revokeAccessToken(id: record.id)
            #expect(try await client.graphql("{ __typename }", token: token).status == 401)
        }
    }

    /// Ids are URL-safe base64, and one in 64 started with "-", which `carnet token revoke ID` read as an option.
    @Test("No token id starts with a dash")
    func idsStartWithoutDash() async throws {
        try await withRouter { server, _ in
            for index in 0..<400 {
                let (_, record) = try await server.app.tokens.create(name: "t\(index)", scopes: [.read])
                #expect(!record.id.hasPrefix("-"), "\(record.id)")
            }
        }
    }

    @Test("A read-only token cannot run mutations: 403 FORBIDDEN, nothing written")
    func wrongScope() async throws {
        try await withRouter { server, client in
            let reader = try await server.token([.read])
            let reply = try await client.graphql(Self.addAnna, token: reader)
            #expect(reply.status == 403)
            #expect(reply.errorCodes == ["FORBIDDEN"])
            #expect(try await server.store.contactCount() == 0)
            let writer = try await server.token([.write])
            #expect(try await client.graphql("{ __typename }", token: writer).status == 403)
        }
    }

    @Test("A token bound to authors: its own author by default, others refused with FORBIDDEN and nothing written")
    func boundAuthors() async throws {
        try await withRouter { server, client in
            let token = try await server.token(authors: ["app-a", "app-a-import"])
            let start = try await server.store.currentHistoryToken()
            let spoofed = try await client.graphql(Self.addAnna, variables: ["author": "app-b"], token: token)
            #expect(spoofed.errorCodes == ["FORBIDDEN"])
            #expect(try await server.store.contactCount() == 0)
            _ = try #require(try await client.graphql(Self.addAnna, token: token).status == 200)
            _ = try await client.graphql(Self.addAnna, variables: ["author": "app-a-import"], token: token)
            let page = try await server.store.changeHistory(ChangeHistoryFetchRequest(startingToken: start))
            #expect(page.events.map(\.author) == ["app-a", "app-a-import"])
        }
    }

    @Test("Over the per-token rate: 429 with Retry-After; other tokens are unaffected")
    func rateLimit() async throws {
        try await withRouter({
            $0.rateLimitPerSecond = 0.01
            $0.rateLimitBurst = 3
        }) { server, client in
            let busy = try await server.token()
            let calm = try await server.token()
            var statuses: [UInt] = []
            var retryAfter: String?
            for _ in 0..<5 {
                let reply = try await client.graphql("{ __typename }", token: busy)
                statuses.append(reply.status)
                if reply.status == 429 { retryAfter = reply.header("Retry-After") }
            }
            #expect(statuses == [200, 200, 200, 429, 429])
            #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true)
            #expect(try await client.graphql("{ __typename }", token: calm).status == 200)
        }
    }
}
