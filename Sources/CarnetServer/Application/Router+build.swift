import CarnetGraphQL
import CarnetStore
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes: `/graphql` (authenticated), `/healthz`, `/readyz`, `/metrics`.
func buildRouter(
    configuration: ServerConfiguration, service: GraphQLService, books: any AddressBookStores, tokens: AccessTokens,
    limiter: RateLimiter, metrics: ServerMetrics, responseBudget: ResponseMemoryBudget
) -> Router<CarnetRequestContext> {
    let router = Router(context: CarnetRequestContext.self)
    router.addMiddleware {
        HeadRequestMiddleware()
        RequestLogMiddleware(metrics: metrics)
        CORSMiddleware(allowedOrigins: Set(configuration.allowedOrigins))
        GraphQLMethodMiddleware()
    }
    // `/graphql` first: the router tries top-level paths in the order they were added, and this is the busy one.
    let handler = GraphQLHTTPHandler(
        service: service, books: books, tokens: tokens, metrics: metrics,
        maxBodyBytes: configuration.maxBodyBytes,
        responseBudget: responseBudget)
    let graphql = router.group("/graphql").add(middleware: VaryAcceptMiddleware())
        .add(middleware: BearerAuthMiddleware(tokens: tokens, limiter: limiter))
    graphql.get { request, context in try await handler.handle(request, context: context) }
    graphql.post { request, context in try await handler.handle(request, context: context) }
    router.on("/graphql", method: .options) { _, _ in
        Response(status: .noContent, headers: [.allow: GraphQLMethodMiddleware.allowed])
    }
    let ok = ByteBuffer(string: #"{"status":"ok"}"#)
    // The static routes answer HEAD as GET (HeadRequestMiddleware drops the body); `/graphql` refuses it
    // (GraphQLMethodMiddleware).
    for method in [HTTPRequest.Method.get, .head] {
        // Liveness: a static answer (also the ceiling the HTTP benchmark compares with).
        router.on("/healthz", method: method) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ok))
        }
        // Readiness: the store answers a read.
        router.on("/readyz", method: method) { _, context in
            do {
                _ = try await service.store.currentHistoryToken()
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ok))
            } catch {
                context.logger.error("Readiness check failed", metadata: ["error.type": "\(type(of: error))"])
                return HTTPErrorResponse(
                    status: .serviceUnavailable, code: .notReady, message: "The store is not available."
                )
                .response()
            }
        }
        router.on("/metrics", method: method) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: await metrics.render(store: service.store))))
        }
    }
    return router
}
