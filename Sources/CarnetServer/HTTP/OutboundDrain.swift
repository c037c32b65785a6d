import NIOCore

/// Waits for a connection's bytes to leave the process, as its ``WriteStallTimeout`` counts them: Hummingbird's and
/// the WebSocket's writers return once a write is in the pipeline, not once the socket took it, so an answer a
/// client does not read was held (and the response budget given back) while it waited there.
enum OutboundDrain {
    /// Returns once every byte passed on so far but the last `allowed` is written, or the connection closed; at once
    /// on a channel without the handler (an HTTP/2 stream's, whose answers are held until the stream closes).
    ///
    /// Asked on the event loop, after the writes the caller made before (they were queued there first).
    static func wait(_ channel: any Channel, allBut allowed: Int = 0) async {
        let written = channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let handler = try? channel.pipeline.syncOperations.handler(type: WriteStallTimeout.self) else {
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            return handler.whenWritten(allBut: allowed, eventLoop: channel.eventLoop)
        }
        try? await written.get()
    }
}
