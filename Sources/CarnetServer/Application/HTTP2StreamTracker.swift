import NIOCore
import NIOHTTP2

/// In each HTTP/2 request's stream: tells the connection's ``HTTP2ConnectionGuard`` that the stream opened and,
/// once, that it closed, so that a shutdown closes a connection with no request open without waiting.
final class HTTP2StreamTracker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    /// The guard of the connection, found when the stream's handlers are added (a stream shares its connection's
    /// event loop).
    private var connection: (guard: HTTP2ConnectionGuard, context: ChannelHandlerContext)?

    func handlerAdded(context: ChannelHandlerContext) {
        guard let parent = context.channel.parent,
            let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID),
            let connectionGuard = try? parent.pipeline.syncOperations.handler(type: HTTP2ConnectionGuard.self),
            let guardContext = try? parent.pipeline.syncOperations.context(handlerType: HTTP2ConnectionGuard.self)
        else { return }
        connectionGuard.streamOpened(streamID)
        connection = (connectionGuard, guardContext)
    }

    func handlerRemoved(context: ChannelHandlerContext) { closed() }

    func channelInactive(context: ChannelHandlerContext) {
        closed()
        context.fireChannelInactive()
    }

    private func closed() {
        guard let connection else { return }
        self.connection = nil
        connection.guard.streamClosed(connection.context)
    }
}
