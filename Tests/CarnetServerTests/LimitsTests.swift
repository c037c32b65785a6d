import AsyncHTTPClient
import CarnetServer
import Foundation
import NIOCore
import NIOSSL
import Testing

@Suite("Slow clients and plain HTTP")
struct LimitsTests {
    @Test("A client that stops sending its body gets 408 after the body timeout")
    func slowBody() async throws {
        try await withServer({ $0.bodyTimeout = .milliseconds(500) }) { server in
            let token = try await server.token()
            try await TestClient.with(server) { client in
                var request = HTTPClientRequest(url: server.url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let first = ByteBuffer(string: #"{"query":"#)
                // Announces 40 bytes, sends 9, then stalls (the stream never ends: only the server can end this).
                let (body, continuation) = AsyncStream<ByteBuffer>.makeStream()
                continuation.yield(first)
                request.body = .stream(body, length: .known(40))
                // Without the server's deadline nothing would answer: the body never completes.
                let response = try await client.client.execute(request, timeout: .seconds(30))
                #expect(response.status.code == 408)
                continuation.finish()
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
