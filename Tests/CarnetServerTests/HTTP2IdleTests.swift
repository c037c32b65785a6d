import CarnetServer
import NIOCore
import NIOPosix
import Testing

@Suite("HTTP/2 idle connections")
struct HTTP2IdleTests {
    /// An outside client found that a connection which never acknowledges the PING of the graceful close stayed open
    /// for ever (the grace period waits for the acknowledgement); enough of them hold every connection there is.
    @Test("An HTTP/2 connection whose client never answers the graceful close's PING is closed all the same")
    func unacknowledgedPing() async throws {
        try await withServer({ $0.idleTimeout = .seconds(1) }) { server in
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath, alpn: ["h2"])
            let start = ContinuousClock.now
            // The preface and an empty SETTINGS frame, then silence: no acknowledgement of anything, no stream.
            let preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\u{0}\u{0}\u{0}\u{4}\u{0}\u{0}\u{0}\u{0}\u{0}"
            _ = try await connection.sendAndReadUntilClosed(preface, limit: .seconds(120))
            #expect(ContinuousClock.now - start >= .seconds(1))
        }
    }

    @Test("Shutdown ends an HTTP/2 connection whose client never answers, within the grace period and a margin")
    func shutdownWithSilentClient() async throws {
        // Idle limits far past the bound below, which a whole suite on two loaded cores needs.
        let server = try await TestServer.start {
            $0.shutdownGracePeriod = .seconds(1)
            $0.idleTimeout = .seconds(600)
        }
        let connection = try await RawConnection.open(port: server.port, caPath: server.caPath, alpn: ["h2"])
        // The preface, then silence: the graceful close's PING is never acknowledged.
        let reader = Task {
            try await connection.sendAndReadUntilClosed("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", limit: .seconds(300))
        }
        try await Task.sleep(for: .milliseconds(200))
        // Well past the 6 s it needs (a loaded suite once took over 40), well short of the idle limit.
        let stopped = try await server.stops(within: .seconds(150))
        #expect(stopped, "the server was still shutting down after 150 s")
        _ = try? await reader.value
    }

    /// A shutdown that began while a connection's TLS handshake was under way reached none of its HTTP handlers: the
    /// connection lived on until the first-request deadline, or, once it chose HTTP/2, until the idle limit.
    @Test(
        "Shutdown during a TLS handshake ends the connection within the grace period, whether or not the handshake then completes",
        arguments: ["h2", "http/1.1"], [false, true])
    func shutdownDuringHandshake(protocol: String, completesHandshake: Bool) async throws {
        let server = try await TestServer.start {
            $0.shutdownGracePeriod = .seconds(1)
            $0.firstRequestTimeout = .seconds(600)
            $0.idleTimeout = .seconds(600)
        }
        let hold = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        let connection = try await RawConnection.open(
            port: server.port, caPath: server.caPath, alpn: [`protocol`], holdUntil: hold.futureResult)
        // HTTP/2's preface then silence; on HTTP/1.1, no request at all.
        let text = completesHandshake && `protocol` == "h2" ? "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" : ""
        let reader = Task { try await connection.sendAndReadUntilClosed(text, limit: .seconds(300)) }
        // The server has the connection (no ClientHello yet) when its shutdown begins.
        try await Task.sleep(for: .milliseconds(300))
        // Well past the grace period (and a loaded suite's delays), well short of the deadlines that ended the
        // connection before.
        let stopped = try await server.stops(within: .seconds(150)) {
            try await Task.sleep(for: .milliseconds(300))
            if completesHandshake { hold.succeed() }
        }
        hold.succeed()  // a second completion does nothing
        #expect(stopped, "the server was still shutting down after 150 s")
        _ = try? await reader.value
    }
}
