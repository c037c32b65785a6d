import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import CarnetServer

/// An answer a slow client is still reading keeps its connection (an outside tester's find: Hummingbird's idle
/// timeout counted from when the answer was handed to the channel, and cut slow readers off after 60 s); an idle
/// connection, and one whose answer makes no progress, are closed. The event loop's clock is advanced by hand, and a
/// handler in front holds the writes as a socket (or an HTTP/2 window) would.
@Suite("HTTP idle timeout")
struct HTTPIdleTimeoutTests {
    final class HeldParts: ChannelOutboundHandler {
        typealias OutboundIn = HTTPResponsePart
        var promises: [EventLoopPromise<Void>] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            promises.append(promise ?? context.eventLoop.makePromise())
        }

        func flush(context: ChannelHandlerContext) {}

        func writeOne() {
            guard !promises.isEmpty else { return }
            promises.removeFirst().succeed()
        }
    }

    func connected() throws -> (EmbeddedChannel, EmbeddedEventLoop, HeldParts) {
        let loop = EmbeddedEventLoop()
        let held = HeldParts()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(held)
        try channel.pipeline.syncOperations.addHandler(HTTPIdleTimeout(idle: .seconds(60), stall: .seconds(300)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        return (channel, loop, held)
    }

    func request(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(
            HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    func answer(_ channel: EmbeddedChannel, bytes: Int) {
        channel.write(HTTPResponsePart.head(HTTPResponse(status: .ok)), promise: nil)
        channel.write(HTTPResponsePart.body(ByteBuffer(repeating: 0x61, count: bytes)), promise: nil)
        channel.writeAndFlush(HTTPResponsePart.end(nil), promise: nil)
    }

    @Test("An idle connection is closed after the idle time; one with a request being answered is not")
    func idle() throws {
        let (channel, loop, _) = try connected()
        loop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        try request(channel)
        loop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "the request is being worked on")
        let (other, otherLoop, _) = try connected()
        otherLoop.advanceTime(by: .seconds(60))
        #expect(!other.isActive)
    }

    @Test("A slow reader keeps its connection for as long as its answer goes out; idle time counts from its end")
    func slowReader() throws {
        let (channel, loop, held) = try connected()
        try request(channel)
        answer(channel, bytes: 2_000_000)
        // 123 slices and the head and end, one taken every 20 s: 40 minutes.
        while held.promises.count > 1 {
            loop.advanceTime(by: .seconds(20))
            #expect(channel.isActive)
            held.writeOne()
        }
        held.writeOne()
        loop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("An answer that makes no progress is closed after the stall limit")
    func stalled() throws {
        let (channel, loop, held) = try connected()
        try request(channel)
        answer(channel, bytes: 100_000)
        held.writeOne()
        loop.advanceTime(by: .seconds(299))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }
}
