import CarnetServer
import Synchronization
import Testing

/// A connection with no request open ends at once in a shutdown, whatever its client does. Most idle HTTP/2 clients
/// (connection pools) read nothing, so they never acknowledge the PING of the graceful close: each such connection
/// held every shutdown for the whole grace period. An HTTP/1.1 connection opened ahead of its first request held it
/// until its first-request deadline.
@Suite("Connections in a shutdown")
struct ShutdownTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + HTTP2Frames.frame(type: 0x4, stream: 0, [])

    /// Stops the server while `bytes` are sent on a new connection that then reads and answers nothing. Returns how
    /// long the connection lived into the shutdown, what it received, and whether the server stopped.
    static func stop(
        _ server: TestServer, sending bytes: [UInt8], alpn: String = "h2"
    ) async throws -> (Duration, [UInt8], Bool) {
        let connection = try await RawConnection.open(port: server.port, caPath: server.caPath, alpn: [alpn])
        let clock = ContinuousClock()
        let started = Mutex<ContinuousClock.Instant?>(nil)
        let reader = Task {
            let received = try await connection.sendAndReadUntilClosed(bytes: bytes, limit: .seconds(300))
            return (started.withLock { clock.now - ($0 ?? clock.now) }, received)
        }
        // The server has the connection and its request when the shutdown begins.
        try await Task.sleep(for: .milliseconds(500))
        started.withLock { $0 = clock.now }
        // Well past what it needs on a loaded machine, well short of the grace period below.
        let stopped = try await server.stops(within: .seconds(150))
        let (lived, received) = try await reader.value
        return (lived, received, stopped)
    }

    @Test("A connection without a request open ends at once, with a last GOAWAY naming the last stream served")
    func idleConnection() async throws {
        let server = try await TestServer.start {
            $0.shutdownGracePeriod = .seconds(600)
            $0.idleTimeout = .seconds(600)
        }
        let (_, received, stopped) = try await Self.stop(server, sending: Self.preface)
        #expect(stopped, "the server was still shutting down after 150 s")
        // Hummingbird's GOAWAY of the largest identifier (new streams still welcome), then the last one: none served.
        #expect(HTTP2Frames.goAwayLastStreams(received) == [0x7FFF_FFFF, 0])
    }

    @Test("An HTTP/1.1 connection without its first request ends at once")
    func connectionBeforeItsFirstRequest() async throws {
        let server = try await TestServer.start {
            $0.shutdownGracePeriod = .seconds(600)
            $0.firstRequestTimeout = .seconds(600)
            $0.idleTimeout = .seconds(600)
        }
        let (_, received, stopped) = try await Self.stop(server, sending: [], alpn: "http/1.1")
        #expect(stopped, "the server was still shutting down after 150 s")
        #expect(received.isEmpty)
    }

    @Test("A request in flight keeps its connection through the shutdown's grace period")
    func requestInFlight() async throws {
        let server = try await TestServer.start {
            $0.shutdownGracePeriod = .seconds(3)
            $0.idleTimeout = .seconds(600)
            $0.bodyTimeout = .seconds(600)
        }
        // A POST whose body never comes: its stream stays open, its request in flight.
        let headers = HTTP2Frames.requestHeaders(path: "/graphql", token: try await server.token())
        let (lived, received, stopped) = try await Self.stop(
            server, sending: Self.preface + HTTP2Frames.frame(type: 0x1, flags: 0x4, stream: 1, headers))
        #expect(stopped, "the server was still shutting down after 150 s")
        #expect(lived >= .seconds(3), "the connection closed \(lived) into the shutdown, before its grace period")
        #expect(HTTP2Frames.goAwayLastStreams(received).first == 0x7FFF_FFFF)
    }
}
