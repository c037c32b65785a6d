import Hummingbird
import NIOCore

/// `POST /bench/static`, served only with ``ServerConfiguration/benchmarkRoutes``: the static answer to the request
/// a contact-by-id query makes. It reads the body under the same limit and answers 200 with a JSON body as large as
/// the benchmark's contact (375 bytes), so the difference with `/graphql` is Carnet's own work: authentication, the
/// GraphQL request, the store read and the JSON. `GET /healthz` stays the ceiling the issue's goal names.
func addBenchmarkRoute(_ router: Router<CarnetRequestContext>, _ configuration: ServerConfiguration) {
    let body = ByteBuffer(string: #"{"data":{"contact":{"note":""# + String(repeating: "x", count: 343) + #""}}}"#)
    router.post("/bench/static") { request, _ in
        _ = try await request.body.collect(upTo: configuration.maxBodyBytes)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
}
