import NIOCore
import NIOPosix
import NIOSSL

/// A connection to the test server that sends exactly the bytes it is given and reads until the server closes:
/// for clients that stall or misbehave, which real HTTP clients will not do. Its channel must be read with
/// ``sendAndReadUntilClosed(_:limit:)`` (an NIOAsyncChannel never used that way traps when it is freed); cancelling
/// the task that reads closes it.
struct RawConnection {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Connects over TCP, with TLS (verified against the development CA, offering `alpn`) unless `caPath` is nil.
    static func open(port: Int, caPath: String?, alpn: [String] = ["http/1.1"]) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let caPath {
                        var tls = TLSConfiguration.makeClientConfiguration()
                        tls.trustRoots = .file(caPath)
                        tls.applicationProtocols = alpn
                        let handler = try NIOSSLClientHandler(
                            context: NIOSSLContext(configuration: tls), serverHostname: "localhost")
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return RawConnection(channel: channel)
    }

    /// Sends `text`, then reads everything until the server closes the connection (or resets it, or TLS fails):
    /// what arrived. Gives up after `limit` so that a server that never closes fails the test instead of hanging it.
    /// - Parameter received: called with each piece that arrives.
    func sendAndReadUntilClosed(
        _ text: String = "", limit: Duration = .seconds(120), received: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> String {
        let onReceive = received
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    if !text.isEmpty { try await outbound.write(ByteBuffer(string: text)) }
                    var received = ""
                    do {
                        for try await buffer in inbound {
                            received += String(buffer: buffer)
                            onReceive(String(buffer: buffer))
                        }
                    } catch {
                        // A reset or a TLS alert ends the connection too.
                    }
                    return received
                }
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let received = first else {
                throw RawConnectionError.stillOpen
            }
            return received
        }
    }
}

enum RawConnectionError: Error { case stillOpen }
