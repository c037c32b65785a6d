import CarnetServer
import CarnetTestSupport
import Foundation
import Testing

/// Clients from outside Swift against a live server over TLS with certificate verification: Python's gql (the
/// end-to-end scenario), a port of the graphql-http audit suite (httpx, HTTP/1.1 and HTTP/2), and the
/// graphql-transport-ws protocol checks (websockets). `.ci/run` installs them (tests/clients/requirements.txt)
/// and sets CARNET_REQUIRE_PYTHON_CLIENTS=1, so there a missing package fails these tests instead of skipping them.
@Suite("Python clients", .enabled(if: PythonClients.available, "pip install -r tests/clients/requirements.txt"))
struct PythonClientTests {
    @Test("gql: introspect, create, query, and subscriptions filtered by excluded author")
    func gqlScenario() async throws {
        try await withServer { server in
            let a = try await server.token(authors: ["app-a"], name: "app-a")
            let b = try await server.token(authors: ["app-b"], name: "app-b")
            // A hang bound: in a whole suite's first minutes each step took 5-13 s, and 120 s ran out (CI).
            try await PythonClients.run(
                "scenario.py",
                ["--url", server.url, "--ca", server.caPath, "--token-a", a, "--token-b", b, "--timeout", "400"])
        }
    }

    @Test("Expect: 100-continue gets its 100 before the body, over HTTP/1.1 (pipelined too) and HTTP/2")
    func expectContinue() async throws {
        try await withServer { server in
            let token = try await server.token()
            try await PythonClients.run(
                "expect_continue.py", ["--port", "\(server.port)", "--ca", server.caPath, "--token", token])
        }
    }

    @Test("A client that drops its connection mid-body without close_notify is counted as 499, not 500")
    func droppedBody() async throws {
        try await withServer { server in
            let token = try await server.token()
            try await PythonClients.run(
                "dropped_body.py", ["--port", "\(server.port)", "--ca", server.caPath, "--token", token])
        }
    }

    @Test("graphql-http audit suite (all 61 audits) over HTTP/1.1 and HTTP/2, plus Carnet's refusals")
    func httpAudit() async throws {
        try await withServer({
            $0.allowedOrigins = ["https://app.example"]
            $0.maxBodyBytes = 65536
        }) { server in
            let token = try await server.token()
            for version in [[], ["--http2-only"]] {
                try await PythonClients.run(
                    "http_audit.py",
                    [
                        "--url", server.url, "--ca", server.caPath, "--token", token,
                        "--max-body", "65536", "--cors-origin", "https://app.example",
                    ] + version)
            }
        }
    }

    @Test(
        "HTTP/2 announces its stream limit, a client that keeps to it gets every answer on one connection, and a busy connection outlives the limit for silent ones"
    )
    func http2StreamLimit() async throws {
        // The guard closes a connection silent for the idle timeout + 15 s (45 s here); 50 s of requests every
        // quarter second must not be cut (a first version counted streams it was never told of, and cut every
        // connection at that age). The idle timeout runs from the connection's start: idle timeouts of 3 and 6 s
        // ran out in a whole suite's first minutes before the client had the settings it waits for.
        try await withServer({
            $0.maxConcurrentHTTP2Streams = 5
            $0.idleTimeout = .seconds(30)
        }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "h2_stream_limit.py",
                ["--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--expect", "5", "--keep", "50"])
        }
    }

    @Test(
        "An HTTP/2 request with an invalid header block or body is reset alone; the connection's other requests are answered"
    )
    func http2StreamErrors() async throws {
        try await withServer { server in
            let token = try await server.token()
            try await PythonClients.run(
                "h2_stream_errors.py", ["--port", "\(server.port)", "--ca", server.caPath, "--token", token])
        }
    }

    @Test("A client that never reads holds at most the server's budget of answers; past it, 503 SERVER_BUSY")
    func unreadResponses() async throws {
        // Its pause, on a loaded machine, must not meet the write stall limit (tested below).
        try await withServer({
            $0.maxHeldResponseBytes = 3_000_000
            $0.writeStallTimeout = .seconds(600)
        }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "unread_responses.py",
                ["--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--budget", "3000000"])
        }
    }

    @Test("An unread answer counts against the budget until its bytes have gone, over HTTP/1.1 and WebSocket")
    func unreadAcrossConnections() async throws {
        // One answer of ~6 MB fits the budget, two do not.
        try await withServer({
            $0.maxHeldResponseBytes = 9_000_000
            $0.writeStallTimeout = .seconds(600)
        }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "unread_across_connections.py",
                ["--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--budget", "9000000"])
        }
    }

    @Test("A WebSocket client that never reads holds at most the budget of answers; past it, SERVER_BUSY errors")
    func webSocketUnreadResponses() async throws {
        try await withServer({
            $0.maxHeldResponseBytes = 7_000_000
            $0.writeStallTimeout = .seconds(600)
        }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "ws_unread_responses.py",
                ["--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--budget", "7000000"])
        }
    }

    @Test("A WebSocket client that stops reading with answers pending is closed at the write stall limit")
    func webSocketStalledReader() async throws {
        // Room for the stalled sockets' four answers (~6 MB each) and not one more: another client's query is
        // answered only once they are gone.
        try await withServer({
            $0.maxHeldResponseBytes = 26_000_000
            $0.writeStallTimeout = .seconds(2)
        }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "ws_stalled_reader.py",
                ["--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--stall", "2"])
        }
    }

    @Test("An HTTP/2 request answered before its body ended (413, 401) is reset with NO_ERROR: its client stops")
    func http2EarlyResponse() async throws {
        try await withServer { server in
            let token = try await server.token()
            try await PythonClients.run(
                "h2_early_response.py",
                [
                    "--port", "\(server.port)", "--ca", server.caPath, "--token", token, "--limit",
                    "\(server.app.configuration.maxBodyBytes)",
                ])
        }
    }

    @Test("A changeHistory subscriber that stops reading during 700 large commits still gets every event")
    func slowSubscriber() async throws {
        try await withServer { server in
            let token = try await server.token()
            try await PythonClients.run(
                "slow_subscriber.py",
                [
                    "--url", "wss://localhost:\(server.port)/graphql",
                    "--ca", server.caPath, "--token", token, "--saves", "700",
                ])
        }
    }

    @Test("Deleting a book while clients query it, save to it and subscribe to it: documented errors only")
    func bookDeletionRace() async throws {
        // Six clients as fast as they can: past the per-token rate limit, which has tests of its own.
        try await withServer({ $0.rateLimitPerSecond = 0 }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "book_deletion_race.py",
                ["--url", server.url, "--ca", server.caPath, "--token", token, "--rounds", "10"])
        }
    }

    @Test("More vCard imports at once than background threads, beside saves: every card, contact and author arrives")
    func concurrentImports() async throws {
        try await withServer({ $0.rateLimitPerSecond = 0 }) { server in
            let token = try await server.token()
            try await PythonClients.run(
                "concurrent_imports.py",
                ["--url", server.url, "--ca", server.caPath, "--token", token, "--imports", "12", "--books", "3"])
        }
    }

    @Test("graphql-transport-ws: handshake, close codes 4400/4401/4403/4408/4409/4429, ping, complete, scopes")
    func webSocketProtocol() async throws {
        try await withServer({ $0.webSocketInitTimeout = .seconds(3) }) { server in
            let token = try await server.token()
            let reader = try await server.token([.read])
            try await PythonClients.run(
                "ws_protocol.py",
                [
                    "--url", "wss://localhost:\(server.port)/graphql",
                    "--ca", server.caPath, "--token", token, "--read-only-token", reader,
                ])
        }
    }
}

enum PythonClients {
    static let directory = ChildProcess.repositoryRoot.appendingPathComponent("tests/clients")

    /// Whether python3 with the clients' packages is here; required (never skipped) when CI says so.
    static var available: Bool { ChildProcess.pythonHas("gql, websockets, httpx") }

    static func run(_ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", directory.appendingPathComponent(script).path] + arguments, timeout: .seconds(600))
        #expect(
            result.status == 0, "\(script) failed:\n\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
    }
}
