import NIOCore
import NIOEmbedded
import Testing

@testable import CarnetServer

/// A connection whose writes make no progress for the limit is closed; one whose client takes a slice now and then
/// is not, however long its answer. The event loop's clock is advanced by hand, and a handler in front of the
/// limit's holds the writes as a socket whose client reads nothing would.
@Suite("Write stall timeout")
struct WriteStallTimeoutTests {
    /// Holds every write's promise until told to complete the oldest.
    final class HeldWrites: ChannelOutboundHandler {
        typealias OutboundIn = IOData
        var promises: [EventLoopPromise<Void>] = []
        var sizes: [Int] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .byteBuffer(let buffer) = unwrapOutboundIn(data) { sizes.append(buffer.readableBytes) }
            promises.append(promise ?? context.eventLoop.makePromise())
        }

        func flush(context: ChannelHandlerContext) {}

        func writeOne() {
            guard !promises.isEmpty else { return }
            promises.removeFirst().succeed()
        }
    }

    func connected() throws -> (EmbeddedChannel, EmbeddedEventLoop, HeldWrites) {
        let loop = EmbeddedEventLoop()
        let held = HeldWrites()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(held)
        try channel.pipeline.syncOperations.addHandler(WriteStallTimeout(limit: .seconds(30)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        return (channel, loop, held)
    }

    func write(_ channel: EmbeddedChannel, bytes: Int) {
        channel.writeAndFlush(ByteBuffer(repeating: 0x61, count: bytes), promise: nil)
    }

    @Test("A large write goes out in slices; none written for the limit: closed")
    func stalled() throws {
        let (channel, loop, held) = try connected()
        write(channel, bytes: 100_000)
        #expect(held.sizes == [16_384, 16_384, 16_384, 16_384, 16_384, 16_384, 1_696])
        loop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("A slice written now and then keeps the connection, however long the answer takes")
    func steadyReader() throws {
        let (channel, loop, held) = try connected()
        write(channel, bytes: 2_000_000)
        for _ in 0..<60 {
            loop.advanceTime(by: .seconds(25))
            #expect(channel.isActive)
            held.writeOne()
        }
        // Nothing waits once every write is done: no limit applies, however long the connection stays idle.
        while !held.promises.isEmpty { held.writeOne() }
        loop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        // Waiting again: counted from the new write.
        write(channel, bytes: 10)
        loop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }
}
