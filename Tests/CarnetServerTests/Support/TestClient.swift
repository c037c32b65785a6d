import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import NIOSSL

/// A client of the service: over HTTPS, trusting only the server's development CA with full certificate
/// verification, or straight to its router in process (``withRouter``).
struct TestClient: Sendable {
    private enum Transport: Sendable {
        case live(HTTPClient, baseURL: String)
        case router(any TestClientProtocol)
    }

    private let transport: Transport

    /// The HTTPS client (live tests only).
    var client: HTTPClient {
        guard case .live(let client, _) = transport else { preconditionFailure("a router test has no HTTP client") }
        return client
    }

    /// The server's base URL (live tests only).
    var baseURL: String {
        guard case .live(_, let baseURL) = transport else { preconditionFailure("a router test has no URL") }
        return baseURL
    }

    init(client: HTTPClient, server: TestServer) { transport = .live(client, baseURL: server.baseURL) }

    init(router: any TestClientProtocol) { transport = .router(router) }

    struct Reply {
        var status: UInt
        var headers: HTTPHeaders
        var body: String
        var version: HTTPVersion

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var errorCodes: [String] {
            (json["errors"] as? [[String: Any]] ?? []).compactMap {
                ($0["extensions"] as? [String: Any])?["code"] as? String
            }
        }
        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    static func with<T>(
        _ server: TestServer, http2: Bool = false, trustCA: Bool = true,
        _ body: (TestClient) async throws -> T
    ) async throws -> T {
        var tls = TLSConfiguration.makeClientConfiguration()
        if trustCA { tls.trustRoots = .file(server.caPath) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = http2 ? .automatic : .http1Only
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(TestClient(client: client, server: server))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func send(
        _ method: HTTPMethod = .POST, path: String = "/graphql", query: String? = nil, headers: [(String, String)] = [],
        body: String? = nil, timeout: TimeAmount = .seconds(120)
    ) async throws -> Reply {
        // The timeout is a hang bound: in a whole suite's first minutes a request once waited past 30 s (CI).
        let target = path + (query.map { "?" + $0 } ?? "")
        guard case .live(let client, let baseURL) = transport else {
            return try await sendToRouter(method, target, headers, body)
        }
        var request = HTTPClientRequest(url: baseURL + target)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return Reply(
            status: response.status.code, headers: response.headers, body: String(buffer: bytes),
            version: response.version)
    }

    private func sendToRouter(_ method: HTTPMethod, _ target: String, _ headers: [(String, String)], _ body: String?)
        async throws -> Reply
    {
        guard case .router(let router) = transport, let method = HTTPRequest.Method(method.rawValue) else {
            throw TestClientError.unsupported
        }
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { throw TestClientError.unsupported }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = try await router.executeRequest(
            uri: target, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
        var replyHeaders = HTTPHeaders()
        for field in response.headers { replyHeaders.add(name: field.name.rawName, value: field.value) }
        return Reply(
            status: UInt(response.status.code), headers: replyHeaders, body: String(buffer: response.body),
            version: .http1_1)
    }

    /// POSTs a GraphQL request as JSON with a bearer token.
    func graphql(_ query: String, variables: [String: Any]? = nil, token: String?, accept: String? = nil) async throws
        -> Reply
    {
        var object: [String: Any] = ["query": query]
        if let variables { object["variables"] = variables }
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let accept { headers.append(("Accept", accept)) }
        return try await send(body: body, headers: headers)
    }
}

extension TestClient {
    func send(body: String, headers: [(String, String)]) async throws -> Reply {
        try await send(.POST, headers: headers, body: body)
    }
}

enum TestClientError: Error {
    case unsupported
}

/// Runs `body` with an HTTP client that is shut down afterwards, also when `body` throws: AsyncHTTPClient traps in a
/// debug build when a client is released without its shutdown, which takes the whole test process down.
func withHTTPClient<T>(
    _ configuration: HTTPClient.Configuration = HTTPClient.Configuration(), _ body: (HTTPClient) async throws -> T
) async throws -> T {
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}
