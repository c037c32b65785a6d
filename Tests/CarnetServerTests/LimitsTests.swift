import AsyncHTTPClient
import CarnetServer
import Foundation
import NIOCore
import NIOSSL
import Testing

@Suite("Slow clients and plain HTTP")
struct LimitsTests {
    @Test("A client that stops before the end of its body gets 408 after the body timeout, and nothing runs",
        arguments: [false, true])
    func slowBody(http2: Bool) async throws {
        try await withServer({ $0.bodyTimeout = .milliseconds(500); $0.benchmarkRoutes = true }) { server in
            let token = try await server.token()
            try await TestClient.with(server, http2: http2) { client in
                // A whole mutation, but one byte short of the announced length: the request never ends, so
                // acting on it would be acting on a request the client did not finish.
                let mutation = #"{"query":"mutation { save(request: {operations: [{addContact: {givenName: \"Slow\"}}]}) { __typename } }"}"#
                // Without the server's deadline nothing would answer: the body never completes. Any route that
                // reads a body gets the same 408 (here the benchmark route, which reads it with Hummingbird).
                for path in ["/graphql", "/bench/static"] {
                    var request = HTTPClientRequest(url: server.baseURL + path)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    let whole = ByteBuffer(string: mutation)
                    let (body, continuation) = AsyncStream<ByteBuffer>.makeStream()
                    continuation.yield(whole)
                    request.body = .stream(body, length: .known(Int64(whole.readableBytes + 1)))
                    let response = try await client.client.execute(request, timeout: .seconds(30))
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
                let pieces = [text.prefix(10), text.dropFirst(10).prefix(20), text.dropFirst(30)].map { ByteBuffer(string: String($0)) }
                request.body = .stream(AsyncStream { continuation in
                    Task {
                        for piece in pieces {
                            continuation.yield(piece)
                            try? await Task.sleep(for: .milliseconds(100))
                        }
                        continuation.finish()
                    }
                }, length: .known(Int64(text.utf8.count)))
                let response = try await client.client.execute(request, timeout: .seconds(30))
                #expect(response.status.code == 200)
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(String(buffer: body) == #"{"data":{"contacts":{"totalCount":0}}}"#)
            }
        }
    }

    @Test("POST /bench/static exists only with the benchmark routes on, reads the body and answers a fixed 375-byte JSON body")
    func benchmarkRoute() async throws {
        let request = #"{"query":"{ __typename }"}"#
        try await withServer { server in
            try await TestClient.with(server) { client in
                let reply = try await client.send(path: "/bench/static", body: request)
                #expect(reply.status == 404)
            }
        }
        try await withServer({ $0.benchmarkRoutes = true }) { server in
            try await TestClient.with(server, http2: true) { client in
                let reply = try await client.send(path: "/bench/static", body: request)
                #expect(reply.status == 200)
                #expect(reply.version == .http2)
                #expect(reply.body.utf8.count == 375)
                #expect((reply.json["data"] as? [String: Any])?["contact"] != nil)
                let tooLarge = String(repeating: " ", count: server.app.configuration.maxBodyBytes + 1)
                #expect(try await client.send(path: "/bench/static", body: tooLarge).status == 413)
            }
        }
    }

    @Test("--plain-http serves HTTP/1.1 without TLS (behind a TLS-terminating proxy)")
    func plainHTTP() async throws {
        try await withServer({ $0.transport = .plainHTTP }) { server in
            let token = try await server.token()
            #expect(server.app.certificates == nil)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/graphql")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.body = .bytes(ByteBuffer(string: #"{"query":"{ __typename }"}"#))
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 16)
            #expect(response.status.code == 200)
            #expect(String(buffer: body) == #"{"data":{"__typename":"Query"}}"#)
            try await client.shutdown()
        }
    }
}
