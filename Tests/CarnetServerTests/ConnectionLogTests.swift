import CarnetServer
import Foundation
import NIOCore
import NIOPosix
import Testing

/// Connections that end before or at their first request are the client's business: an outside fuzzer found that a
/// malformed first head whose client closed at once left "Error handling upgrade result" at `.error` in the log,
/// where an operator looks for the server's own failures.
@Suite("Connection log")
struct ConnectionLogTests {
    @Test("Connections that end before, at or after a refused first head log nothing at .error")
    func earlyEndsLogNoError() async throws {
        let logs = LogRecorder()
        try await withServer(logs: logs) { server in
            let token = try await server.token()
            let heads = [
                "GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\n\r\n", "GET /graphql HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                "POST /graphql HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
                "GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: a\r\n\r\n",
            ]
            for head in heads {
                // The client leaves at once (closing TLS, or resetting the connection), or reads the refusal until
                // the server closes.
                try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndClose(head)
                try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndReset(head)
                let reply = try await RawConnection.open(port: server.port, caPath: server.caPath)
                    .sendAndReadUntilClosed(head, limit: .seconds(60))
                #expect(reply.hasPrefix("HTTP/1.1 4") || reply.hasPrefix("HTTP/1.1 5"), "\(reply.prefix(200))")
            }
            // A TLS handshake and nothing more, closed by the client.
            try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndClose("")
            try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndReset("")
            // A request cut in its head, and a served request on a connection the client then drops.
            for cut in ["POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Le", "POST /graphql HTTP/1.1\r\nHost: a\r\n"] {
                try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndClose(cut)
                try await RawConnection.open(port: server.port, caPath: server.caPath).sendAndReset(cut)
            }
            let served = try await RawConnection.open(port: server.port, caPath: server.caPath)
                .sendAndReadUntilClosed(
                    "GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(token)\r\n"
                        + "Connection: close\r\n\r\n")
            #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(200))")
            // The log line this test is about comes from the connection's task after the channel closed; the
            // closes above are done, and their tasks get a moment to end.
            try await Task.sleep(for: .seconds(1))
        }
        // And one closed by the first request's deadline (short here; the test servers' own is a hang bound).
        try await withServer({ $0.firstRequestTimeout = .seconds(1) }, logs: logs) { server in
            let silent = try await RawConnection.open(port: server.port, caPath: server.caPath)
                .sendAndReadUntilClosed(limit: .seconds(60))
            #expect(silent.isEmpty)
            try await Task.sleep(for: .seconds(1))
        }
        let errors = logs.logged(atLeast: .error)
        #expect(errors.isEmpty, "\(errors)")
    }
}
