import HTTPTypes
import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the authenticated caller.
public struct CarnetRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``BearerAuthMiddleware`` on authenticated routes.
    public var identity: AccessIdentity?
    /// The request's connection (HTTP/1.1) or stream (HTTP/2): closed once the client has gone away, which
    /// stops the request's execution.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
