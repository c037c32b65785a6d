import NIOCore
import NIOEmbedded
import Testing

@testable import CarnetServer

/// A client that reads nothing of what the server writes is closed once its channel has stayed unwritable for the
/// limit; one that takes data again in time is not. The event loop's clock is advanced by hand.
@Suite("Write stall timeout")
struct WriteStallTimeoutTests {
    func connected() throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: WriteStallTimeout(limit: .seconds(30)), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        return (channel, loop)
    }

    func setWritable(_ channel: EmbeddedChannel, _ writable: Bool) {
        channel.isWritable = writable
        channel.pipeline.fireChannelWritabilityChanged()
    }

    @Test("Unwritable for the limit: closed")
    func stalled() throws {
        let (channel, loop) = try connected()
        setWritable(channel, false)
        loop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("Writable again before the limit: the count starts over, and a writable channel is never closed")
    func progress() throws {
        let (channel, loop) = try connected()
        for _ in 0..<5 {
            setWritable(channel, false)
            loop.advanceTime(by: .seconds(20))
            setWritable(channel, true)
            loop.advanceTime(by: .seconds(20))
        }
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        // Unwritable when added (a stream whose window is closed already): counted from then.
        let late = EmbeddedChannel(loop: loop)
        try late.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        late.isWritable = false
        try late.pipeline.syncOperations.addHandler(WriteStallTimeout(limit: .seconds(30)))
        loop.advanceTime(by: .seconds(30))
        #expect(!late.isActive)
        _ = try channel.finish()
    }
}
