import CarnetServer
import Foundation
import Testing

/// The GraphQL-over-HTTP status-code profile (the graphql-http audit suite's) at the router level, in process: the
/// transport does not change it (`HostileRequestTests`, `TLSTests` and the audit suite itself run over real TLS).
@Suite("GraphQL over HTTP")
struct GraphQLHTTPTests {
    static let graphQLResponse = "application/graphql-response+json"

    @Test("Bearer in any case, with spaces; an Accept list over two header lines is read whole")
    func headerForms() async throws {
        try await withRouter { server, client in
            let token = try await server.token()
            let body = #"{"query":"{ __typename }"}"#
            let json = ("Content-Type", "application/json")
            let lower = try await client.send(body: body, headers: [json, ("Authorization", "bearer   \(token)")])
            #expect(lower.status == 200)
            let basic = try await client.send(body: body, headers: [json, ("Authorization", "Basic \(token)")])
            #expect(basic.status == 401)
            // Read alone, the first line would be a 406.
            let split = try await client.send(
                body: body,
                headers: [
                    json, ("Authorization", "Bearer \(token)"),
                    ("Accept", "text/html"), ("Accept", Self.graphQLResponse),
                ])
            #expect(split.status == 200)
            #expect(split.header("Content-Type")?.hasPrefix(Self.graphQLResponse) == true)
        }
    }

    @Test("GET runs queries; a mutation over GET is 405 with Allow: POST and writes nothing")
    func getRequests() async throws {
        try await withRouter { server, client in
            let token = try await server.token()
            let auth = [("Authorization", "Bearer \(token)")]
            let query = try await client.send(.GET, query: "query=%7B+__typename+%7D", headers: auth)
            #expect(query.status == 200)
            #expect(query.body == #"{"data":{"__typename":"Query"}}"#)
            // The media type, and for some errors the status, follow Accept: a cache must know (RFC 9110 12.5.5).
            #expect(query.headers["Vary"].contains("Accept"))
            let unacceptable = try await client.send(
                .GET, query: "query=%7B+__typename+%7D", headers: auth + [("Accept", "text/html")])
            #expect(unacceptable.status == 406 && unacceptable.headers["Vary"].contains("Accept"))
            let unparsable = try await client.send(
                .GET, query: "query=%7B", headers: auth + [("Accept", "application/graphql-response+json")])
            #expect(unparsable.status == 400 && unparsable.headers["Vary"].contains("Accept"))
            let mutation = "mutation{save(request:{operations:[{addContact:{givenName:\"X\"}}]}){__typename}}"
            let encoded = mutation.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let refused = try await client.send(.GET, query: "query=\(encoded)", headers: auth)
            #expect(refused.status == 405)
            #expect(refused.header("Allow") == "POST")
            // 405 comes before the variables are looked at: missing or bad, the method is what is wrong.
            let withVariable = "mutation($id: ID!) { revokeAccessToken(id: $id) }"
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            for variables in ["", "&variables=%7B%22id%22%3A%5B%5D%7D"] {
                let refused = try await client.send(.GET, query: "query=\(withVariable)\(variables)", headers: auth)
                #expect(refused.status == 405, "\(variables)")
                #expect(refused.header("Allow") == "POST")
            }
            #expect(try await server.store.contactCount() == 0)
        }
    }

    @Test(
        "Accept picks the media type; request errors are 200 under application/json and 400 under graphql-response+json"
    )
    func negotiation() async throws {
        try await withRouter { server, client in
            let token = try await server.token()
            let modern = try await client.graphql("{ __typename }", token: token, accept: Self.graphQLResponse)
            #expect(modern.status == 200)
            #expect(modern.header("Content-Type") == "\(Self.graphQLResponse); charset=utf-8")
            let legacy = try await client.graphql("{ __typename }", token: token, accept: "application/json")
            #expect(legacy.header("Content-Type") == "application/json; charset=utf-8")
            let preferred = try await client.graphql(
                "{ __typename }", token: token,
                accept: "application/json;q=0.5, \(Self.graphQLResponse)")
            #expect(preferred.header("Content-Type")?.hasPrefix(Self.graphQLResponse) == true)

            for (query, code) in [("{", "GRAPHQL_PARSE_FAILED"), ("{ nope }", "GRAPHQL_VALIDATION_FAILED")] {
                let strict = try await client.graphql(query, token: token, accept: Self.graphQLResponse)
                #expect(strict.status == 400)
                #expect(strict.errorCodes == [code])
                #expect(strict.json["data"] == nil)
                let lenient = try await client.graphql(query, token: token, accept: "application/json")
                #expect(lenient.status == 200)
                #expect(lenient.errorCodes == [code])
            }
            let coercion = try await client.graphql(
                "query($id: ID!) { contact(id: $id) { id } }",
                variables: ["id": NSNull()], token: token, accept: Self.graphQLResponse)
            #expect(coercion.status == 400)
            #expect(coercion.errorCodes == ["BAD_USER_INPUT"])
            let html = try await client.graphql("{ __typename }", token: token, accept: "text/html")
            #expect(html.status == 406)
        }
    }

    @Test("Malformed requests: 415 without JSON, 400 for bad JSON or parameter types, 413 over the size limit")
    func malformed() async throws {
        try await withRouter({ $0.maxBodyBytes = 4096 }) { server, client in
            let token = try await server.token()
            let auth = ("Authorization", "Bearer \(token)")
            let plain = try await client.send(
                body: #"{"query":"{ __typename }"}"#, headers: [auth, ("Content-Type", "text/plain")])
            #expect(plain.status == 415)
            let none = try await client.send(body: #"{"query":"{ __typename }"}"#, headers: [auth])
            #expect(none.status == 415)
            let json = [auth, ("Content-Type", "application/json")]
            #expect(try await client.send(body: #"{ "not a JSON"#, headers: json).status == 400)
            #expect(try await client.send(body: #"{"query": 0}"#, headers: json).status == 400)
            #expect(
                try await client.send(body: #"{"query":"{ __typename }","variables":"x"}"#, headers: json).status
                    == 400)
            #expect(try await client.send(body: "", headers: json).status == 400)
            let unknownMember = try await client.send(body: #"{"query":"{ __typename }","other":1}"#, headers: json)
            #expect(unknownMember.status == 200)
            let big =
                #"{"query":"{ __typename }","extensions":{"pad":""# + String(repeating: "x", count: 5000) + "\"}}"
            let tooLarge = try await client.send(body: big, headers: json)
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorCodes == ["REQUEST_TOO_LARGE"])
            #expect(try await client.send(.PUT, headers: json, body: "{}").status == 405)
            // No content coding is decoded: a coded body is refused as one, not read as malformed JSON or run.
            for coding in ["gzip", "br", "identity, gzip"] {
                let coded = try await client.send(
                    body: #"{"query":"{ __typename }"}"#, headers: json + [("Content-Encoding", coding)])
                #expect(coded.status == 415 && coded.errorCodes == ["UNSUPPORTED_MEDIA_TYPE"], "\(coding)")
            }
            let identity = try await client.send(
                body: #"{"query":"{ __typename }"}"#, headers: json + [("Content-Encoding", "Identity")])
            #expect(identity.status == 200)
            // A run of combining marks past the limit, which hashing the key would normalize in quadratic time.
            let marks = String(repeating: "\u{0301}\u{0316}", count: 200)
            let marked = try await client.send(body: #"{"query":"{ __typename }","a\#(marks)":1}"#, headers: json)
            #expect(marked.status == 400 && marked.errorCodes == ["BAD_REQUEST"])
            #expect(marked.body.contains("combining marks"), "\(marked.body)")
        }
    }

    @Test("Field errors keep status 200 with data; health, readiness and metrics answer")
    func operations() async throws {
        try await withRouter { server, client in
            let token = try await server.token()
            let missing = try await client.graphql(
                #"mutation { save(request: {operations: [{deleteContact: "nope"}]}) { __typename } }"#,
                token: token)
            #expect(missing.status == 200)
            #expect(!missing.errorCodes.isEmpty)
            #expect(try await client.send(.GET, path: "/healthz").status == 200)
            #expect(try await client.send(.GET, path: "/readyz").status == 200)
            _ = try await client.graphql("query Named { __typename }", token: token)
            let metrics = try await client.send(.GET, path: "/metrics")
            #expect(metrics.status == 200)
            #expect(
                metrics.body.contains(
                    #"carnet_graphql_operations_total{operation="Named",kind="query",status="200"} 1"#))
            #expect(metrics.body.contains("carnet_http_requests_total"))
            #expect(metrics.body.contains("carnet_subscriptions_open 0"))
            #expect(metrics.body.contains("carnet_store_contacts 0"))
        }
    }

    @Test("CORS: preflights from allowed origins pass without a token; other origins get no CORS headers")
    func cors() async throws {
        try await withRouter({ $0.allowedOrigins = ["https://app.example"] }) { server, client in
            let preflight = try await client.send(
                .OPTIONS,
                headers: [
                    ("Origin", "https://app.example"),
                    ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "authorization, content-type"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(preflight.header("Access-Control-Allow-Headers")?.contains("authorization") == true)
            let foreign = try await client.send(
                .OPTIONS,
                headers: [
                    ("Origin", "https://evil.example"),
                    ("Access-Control-Request-Method", "POST"),
                ])
            #expect(foreign.header("Access-Control-Allow-Origin") == nil)
            let simple = try await client.send(.GET, path: "/healthz", headers: [("Origin", "https://app.example")])
            #expect(simple.header("Access-Control-Allow-Origin") == "https://app.example")
            // Every answer varies by Origin, with the header or without (an outside tester's find: a cache could
            // give an allowed origin an answer stored for a request without Origin, lacking the header).
            let token = try await server.token()
            for origin in [nil, "https://evil.example", "https://app.example"] {
                for path in ["/healthz", "/graphql?query=%7B__typename%7D", "/graphql?query=%7B"] {
                    var headers = [("Authorization", "Bearer \(token)")]
                    if let origin { headers.append(("Origin", origin)) }
                    let answer = try await client.send(.GET, path: path, headers: headers)
                    let varies = answer.headers["Vary"].contains { $0.contains("Origin") }
                    #expect(varies, "\(path) from \(origin ?? "none")")
                }
            }
            let refused = try await client.send(.PUT, path: "/graphql", headers: [("Origin", "https://app.example")])
            #expect(refused.status == 405 && refused.headers["Vary"].contains { $0.contains("Origin") })
        }
    }

    /// An outside tester's find: with a wildcard in Accept, an explicit `application/json;q=0` (or a lower quality)
    /// was ignored, and a tie between the two types went to `application/json` whatever their order.
    @Test("Accept: each type takes the quality of its most specific range, then the first listed wins a tie")
    func acceptNegotiation() async throws {
        let graphQL = "\(Self.graphQLResponse); charset=utf-8"
        let json = "application/json; charset=utf-8"
        let cases: [(String, String?)] = [
            ("application/json;q=0, */*", graphQL),
            ("*/*;q=0.1, application/json;q=0", graphQL),
            ("*/*;q=0.9, application/json;q=0.1", graphQL),
            ("\(Self.graphQLResponse);q=0.5, application/json;q=0.5, */*;q=1", graphQL),
            ("application/json;q=0.5, \(Self.graphQLResponse);q=0.5", json),
            ("*/*, application/json;q=0, \(Self.graphQLResponse);q=0", nil),
            ("application/*;q=0, */*", nil),
            ("application/*", json),
            ("*/*;q=0.5, application/*;q=0.2", json),
            ("text/html, application/json;q=0.1", json),
            ("\(Self.graphQLResponse);q=0, application/*", json),
            ("text/html;level=\"1, 2\", \(Self.graphQLResponse)", graphQL),
        ]
        try await withRouter { server, client in
            let token = try await server.token()
            for (accept, expected) in cases {
                let answer = try await client.graphql("{ __typename }", token: token, accept: accept)
                if let expected {
                    #expect(answer.status == 200 && answer.header("Content-Type") == expected, "\(accept)")
                } else {
                    #expect(answer.status == 406, "\(accept)")
                }
            }
        }
    }
}
