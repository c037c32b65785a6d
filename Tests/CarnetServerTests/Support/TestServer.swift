import CarnetServer
import CarnetStore
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A real Carnet server for a test: a temporary data folder (SQLite file, generated development CA), listening
/// on a free loopback port, built by the same `buildApplication` as `carnet serve`.
final class TestServer: Sendable {
    let app: CarnetApplication
    let port: Int
    let directory: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    var store: CarnetStore { app.store }
    var caPath: String { app.certificates?.caPath ?? "" }
    var url: String { "https://localhost:\(port)/graphql" }
    var baseURL: String { "https://localhost:\(port)" }

    static func start(
        _ configure: (inout ServerConfiguration) -> Void = { _ in },
        routes: (Router<CarnetRequestContext>) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "carnet-server-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.port = 0
        configuration.tokenCacheLifetime = .zero
        // The tests share two loaded cores, where an operation can wait longer than the 10 s execution budget
        // without doing anything wrong; the budget has tests of its own.
        configuration.graphQLLimits.maxExecutionTime = .seconds(3_600)
        configure(&configuration)
        var logger = Logger(label: "carnet-test")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(
            configuration: configuration, logger: logger,
            onServerRunning: { port in
                continuation.yield(port)
                continuation.finish()
            }, additionalRoutes: routes)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestServerError.didNotStart }
        return TestServer(app: app, port: port, directory: directory, group: group, task: task)
    }

    private init(app: CarnetApplication, port: Int, directory: URL, group: ServiceGroup, task: Task<Void, any Error>) {
        self.app = app
        self.port = port
        self.directory = directory
        self.group = group
        self.task = task
    }

    /// A new token's text.
    func token(_ scopes: Set<AccessScope> = [.read, .write], authors: [String] = [], name: String = "test") async throws
        -> String
    {
        try await app.tokens.create(name: name, scopes: scopes, authors: authors).token
    }

    /// Graceful shutdown, as on SIGTERM; returns when the service has stopped.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
        try? await app.store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

enum TestServerError: Error {
    case didNotStart
}

/// Runs `body` with a started server and stops it afterwards, also when `body` throws.
func withServer<T>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    routes: (Router<CarnetRequestContext>) -> Void = { _ in }, _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(configure, routes: routes)
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}
