import AsyncHTTPClient
import CarnetServer
import Foundation
import Hummingbird
import NIOCore
import NIOSSL
import Testing

@Suite("Slow clients and plain HTTP")
struct LimitsTests {
    @Test(
        "A client that stops before the end of its body gets 408 after the body timeout, and nothing runs",
        arguments: [false, true])
    func slowBody(http2: Bool) async throws {
        try await withServer({ $0.bodyTimeout = .milliseconds(500) }, routes: Self.addEcho) { server in
            let token = try await server.token()
            try await TestClient.with(server, http2: http2) { client in
                // A whole mutation, but one byte short of the announced length: the request never ends, so
                // acting on it would be acting on a request the client did not finish.
                let mutation =
                    #"{"query":"mutation { save(request: {operations: [{addContact: {givenName: \"Slow\"}}]}) { __typename } }"}"#
                // Without the server's deadline nothing would answer: the body never completes. Any route that
                // reads a body gets the same 408 (here a route that reads it with Hummingbird's own collect).
                for path in ["/graphql", "/echo"] {
                    var request = HTTPClientRequest(url: server.baseURL + path)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    let whole = ByteBuffer(string: mutation)
                    let (body, continuation) = AsyncStream<ByteBuffer>.makeStream()
                    continuation.yield(whole)
                    request.body = .stream(body, length: .known(Int64(whole.readableBytes + 1)))
                    let response = try await client.client.execute(request, timeout: .seconds(120))
                    #expect(response.status.code == 408, "\(path)")
                    #expect(response.version == (http2 ? .http2 : .http1_1))
                    continuation.finish()
                }
                // The server goes on serving (over HTTP/2, on the same connection), and the mutation never ran.
                let count = try await client.graphql("{ contacts(first: 1) { totalCount } }", token: token)
                #expect(count.status == 200)
                #expect(count.body == #"{"data":{"contacts":{"totalCount":0}}}"#)
            }
        }
    }

    @Test("A body that arrives in pieces within the timeout is read whole")
    func bodyInPieces() async throws {
        // The point is that pieces are put together, not the timer: a deadline far beyond the pieces' 0.3 s holds
        // on a loaded machine (the stalled-body test covers the 408).
        try await withServer({ $0.bodyTimeout = .seconds(120) }) { server in
            let token = try await server.token()
            try await TestClient.with(server) { client in
                var request = HTTPClientRequest(url: server.url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let text = #"{"query":"{ contacts(first: 1) { totalCount } }"}"#
                let pieces = [text.prefix(10), text.dropFirst(10).prefix(20), text.dropFirst(30)].map {
                    ByteBuffer(string: String($0))
                }
                request.body = .stream(
                    AsyncStream { continuation in
                        Task {
                            for piece in pieces {
                                continuation.yield(piece)
                                try? await Task.sleep(for: .milliseconds(100))
                            }
                            continuation.finish()
                        }
                    }, length: .known(Int64(text.utf8.count)))
                let response = try await client.client.execute(request, timeout: .seconds(120))
                #expect(response.status.code == 200)
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(String(buffer: body) == #"{"data":{"contacts":{"totalCount":0}}}"#)
            }
        }
    }

    /// A route beside Carnet's that reads its body with Hummingbird and answers it back, as the server benchmark's
    /// static answer does.
    static func addEcho(_ router: Router<CarnetRequestContext>) {
        router.post("/echo") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
    }

    @Test(
        "Routes added to buildApplication are served beside Carnet's, over HTTP/2 too; the product has no benchmark route"
    )
    func additionalRoutes() async throws {
        let request = #"{"query":"{ __typename }"}"#
        try await withServer { server in
            try await TestClient.with(server) { client in
                let benchmark = try await client.send(path: "/bench/static", body: request)
                let echo = try await client.send(path: "/echo", body: request)
                #expect(benchmark.status == 404)
                #expect(echo.status == 404)
                // With the JSON body every refusal has (an outside client found it empty).
                #expect(echo.errorCodes == ["NOT_FOUND"], "\(echo.body)")
                #expect(echo.header("content-type")?.hasPrefix("application/json") == true)
            }
        }
        try await withServer(routes: Self.addEcho) { server in
            try await TestClient.with(server, http2: true) { client in
                let reply = try await client.send(path: "/echo", body: request)
                #expect(reply.status == 200)
                #expect(reply.version == .http2)
                #expect(reply.body == request)
                let benchmark = try await client.send(path: "/bench/static", body: request)
                #expect(benchmark.status == 404)
            }
        }
    }

    @Test("--plain-http serves HTTP/1.1 without TLS (behind a TLS-terminating proxy)")
    func plainHTTP() async throws {
        try await withServer({ $0.transport = .plainHTTP }) { server in
            let token = try await server.token()
            #expect(server.app.certificates == nil)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/graphql")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.body = .bytes(ByteBuffer(string: #"{"query":"{ __typename }"}"#))
            try await withHTTPClient { client in
                let response = try await client.execute(request, timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 1 << 16)
                #expect(response.status.code == 200)
                #expect(String(buffer: body) == #"{"data":{"__typename":"Query"}}"#)
            }
        }
    }
}
