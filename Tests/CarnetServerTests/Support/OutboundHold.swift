import NIOCore

/// Keeps what the handlers after it write (a TLS ClientHello included) until `until` completes, then sends it in
/// order: a client whose handshake starts when the test says.
final class OutboundHold: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private let until: EventLoopFuture<Void>
    private var held: [(NIOAny, EventLoopPromise<Void>?)] = []
    private var flushPending = false
    private var released = false

    init(until: EventLoopFuture<Void>) { self.until = until }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        until.hop(to: context.eventLoop).whenComplete { _ in bound.value.0.release(bound.value.1) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        for (_, promise) in held { promise?.fail(ChannelError.ioOnClosedChannel) }
        held = []
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard released else { return held.append((data, promise)) }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        guard released else {
            flushPending = true
            return
        }
        context.flush()
    }

    private func release(_ context: ChannelHandlerContext) {
        released = true
        for (data, promise) in held { context.write(data, promise: promise) }
        held = []
        if flushPending { context.flush() }
    }
}
