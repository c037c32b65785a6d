import CarnetServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

// The server `scripts/bench_server.py` loads: `carnet serve` with the rate limit off and, beside `/graphql`,
// `POST /bench/static`, the static answer to the request a contact-by-id query makes. It reads the body under the
// same limit and answers 200 with a JSON body as large as the benchmark's contact (375 bytes), so the difference
// with `/graphql` is Carnet's own work: authentication, the GraphQL request, the store read and the JSON.
// The route lives here, not in the product: it answers anyone.
//
// Usage: carnet-server-bench <data folder> <port>
// With CARNET_DATABASE_URL set (as `carnet serve` reads it), the catalog and books are in that PostgreSQL database
// and the folder keeps only the TLS material: bench_server.py --database runs the same load on both backends.

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: carnet-server-bench <data folder> <port>\n".utf8))
    exit(2)
}
var configuration = ServerConfiguration()
configuration.dataDirectory = arguments[1]
configuration.port = port
configuration.rateLimitPerSecond = 0
configuration.databaseURL = ProcessInfo.processInfo.environment["CARNET_DATABASE_URL"]
var logger = Logger(label: "carnet-server-bench")
logger.logLevel = .warning

let body = ByteBuffer(string: #"{"data":{"contact":{"note":""# + String(repeating: "x", count: 343) + #""}}}"#)
let maxBodyBytes = configuration.maxBodyBytes
let app = try await buildApplication(
    configuration: configuration, logger: logger,
    // Written at once: `print` to a pipe is buffered, and bench_server.py waits for this line.
    onServerRunning: { port in
        FileHandle.standardOutput.write(Data("carnet-server-bench is listening on \(port)\n".utf8))
    },
    additionalRoutes: { router in
        router.post("/bench/static") { [body, maxBodyBytes] request, _ in
            _ = try await request.body.collect(upTo: maxBodyBytes)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
    })
let group = ServiceGroup(
    configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
try await group.run()
try await app.backend.close()
