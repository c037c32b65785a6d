import HTTPTypes
import Hummingbird

/// The per-request context: Hummingbird's core storage plus the authenticated caller.
public struct CarnetRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``BearerAuthMiddleware`` on authenticated routes.
    public var identity: AccessIdentity?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }
}
