import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOSSL

/// One structured log line and the metrics for every HTTP request: method, path, status, duration, request id.
/// Never headers, query strings, variables or bodies (they carry tokens and contact data).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let path = request.uri.path
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // The router's own answer for a path it does not serve had no body: it gets the one every refusal has.
            log(request, path, error.status, start, context)
            return HTTPErrorResponse(status: .notFound, code: .notFound, message: "Nothing is served at this path.")
                .response()
        } catch let error as any HTTPResponseError {
            log(request, path, error.status, start, context)
            throw error
        } catch let error where error is CancellationError || Self.isClientGone(error) {
            // The client went away (its connection or HTTP/2 stream closed) and its request stopped: no one
            // reads this answer, and nothing went wrong on the server's side. 499 as nginx records it.
            log(request, path, .clientClosedRequest, start, context)
            return Response(status: .clientClosedRequest)
        } catch {
            context.logger.error("Unhandled error", metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
            log(request, path, .internalServerError, start, context)
            return HTTPErrorResponse(
                status: .internalServerError, code: .internalServerError,
                message: "Internal server error"
            ).response()
        }
        log(request, path, response.status, start, context)
        return response
    }

    /// Whether reading the request failed because its client left: its connection closed mid-body, with TLS's
    /// close_notify or without it (a dropped connection; an outside fuzzer saw each logged as an unhandled error
    /// and counted a 500).
    static func isClientGone(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLError, case .uncleanShutdown = error { return true }
        if let error = error as? ChannelError {
            switch error {
            case .eof, .ioOnClosedChannel, .inputClosed, .outputClosed, .alreadyClosed: return true
            default: return false
            }
        }
        return false
    }

    private func log(
        _ request: Request, _ path: String, _ status: HTTPResponse.Status, _ start: ContinuousClock.Instant,
        _ context: Context
    ) {
        let elapsed = ContinuousClock.now - start
        let route = ServerMetrics.routeLabel(path)
        metrics.recordHTTP(route: route, method: request.method.rawValue, status: status.code, duration: elapsed)
        context.logger.info(
            "request",
            metadata: [
                "http.method": .string(request.method.rawValue), "http.path": .string(route),
                "http.status": .stringConvertible(status.code), "http.duration_ms": .string(elapsed.milliseconds),
            ])
    }
}

extension Duration {
    var milliseconds: String {
        let ms = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.3f", ms)
    }
}

extension HTTPResponse.Status {
    /// nginx's status for a request whose client closed its connection (or HTTP/2 stream) before the answer.
    static let clientClosedRequest = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
}
