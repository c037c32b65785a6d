import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import CarnetServer

/// A WebSocket client is pinged every interval and closed once it has sent nothing for the timeout; one whose pongs
/// come late (they wait behind megabytes the client reads slowly) is not closed at the next ping, as Hummingbird's
/// ping closed it (an outside tester's find: a steady 8 KiB/s subscriber cut off after 30 s). The event loop's
/// clock is advanced by hand.
@Suite("WebSocket keep-alive")
struct WebSocketKeepAliveTests {
    func connected() throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(
            WebSocketKeepAlive(interval: .seconds(15), timeout: .seconds(300)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        return (channel, loop)
    }

    func written(_ channel: EmbeddedChannel) throws -> [WebSocketOpcode] {
        var opcodes: [WebSocketOpcode] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) { opcodes.append(frame.opcode) }
        return opcodes
    }

    func frame(_ opcode: WebSocketOpcode, _ text: String = "") -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, data: ByteBuffer(string: text))
    }

    @Test("Pings every interval; a client that sends nothing for the timeout is closed with 1001")
    func silentClientIsClosed() throws {
        let (channel, loop) = try connected()
        loop.advanceTime(by: .seconds(15))
        #expect(try written(channel) == [.ping])
        loop.advanceTime(by: .seconds(270))
        #expect(try written(channel).allSatisfy { $0 == .ping })
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(15))
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose)
        var data = close.data
        #expect(data.readWebSocketErrorCode() == .goingAway)
        #expect(data.readString(length: data.readableBytes) == "Ping timeout")
        #expect(!channel.isActive)
    }

    @Test("Late pongs keep the socket; they and only they stay here, other frames go on")
    func latePongsKeepTheSocket() throws {
        let (channel, loop) = try connected()
        for _ in 0..<8 {
            // A pong every two minutes: eight pings go unanswered between two of them.
            loop.advanceTime(by: .seconds(120))
            try channel.writeInbound(frame(.pong))
            #expect(channel.isActive)
        }
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil)
        try channel.writeInbound(frame(.text, #"{"type":"ping"}"#))
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.opcode == .text)
        try channel.writeInbound(frame(.ping))
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.opcode == .ping)
        #expect(channel.isActive)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}

/// The keep-alive beside the write-stall limit, as on a server's socket: while answers wait in the server, a ping
/// waits behind them, so only their progress judges the client (a steady 7 KiB/s reader of a 2 MB page was closed
/// after 5 minutes without a pong).
@Suite("WebSocket keep-alive behind waiting answers")
struct WebSocketKeepAliveBehindAnswersTests {
    @Test("A reader making progress is kept however long; the timeout starts once nothing waits")
    func slowReaderKept() throws {
        let loop = EmbeddedEventLoop()
        let held = WriteStallTimeoutTests.HeldWrites()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(held)
        try channel.pipeline.syncOperations.addHandler(WriteStallTimeout(limit: .seconds(300)))
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try channel.pipeline.syncOperations.addHandler(
            WebSocketKeepAlive(interval: .seconds(15), timeout: .seconds(300)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        // A 2 MB frame, read a slice every 20 s for over 40 minutes.
        let page = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(repeating: 0x61, count: 2_000_000))
        channel.writeAndFlush(page, promise: nil)
        for _ in 0..<125 {
            loop.advanceTime(by: .seconds(20))
            #expect(channel.isActive)
            held.writeOne()
        }
        while !held.promises.isEmpty { held.writeOne() }
        loop.advanceTime(by: .seconds(270))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(45))
        #expect(!channel.isActive)
    }
}
