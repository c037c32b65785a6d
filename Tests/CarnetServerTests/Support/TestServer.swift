import CarnetStore
import CarnetStoreSQLite
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Synchronization

@testable import CarnetServer

/// A real Carnet service for a test: a temporary data folder (SQLite file, generated development CA), built by the
/// same `buildApplication` as `carnet serve`. Started, it listens on a free loopback port (for what needs the
/// transport: TLS, HTTP/2, WebSocket, slow clients); built only, its router is driven in process (``withRouter``).
final class TestServer: Sendable {
    let app: CarnetApplication
    let port: Int
    let directory: URL
    private let running: (group: ServiceGroup, task: Task<Void, any Error>)?

    var store: any ContactStore { app.store }
    var caPath: String { app.certificates?.caPath ?? "" }
    var url: String { "https://localhost:\(port)/graphql" }
    var baseURL: String { "https://localhost:\(port)" }

    static func start(
        _ configure: (inout ServerConfiguration) -> Void = { _ in },
        routes: (Router<CarnetRequestContext>) -> Void = { _ in }, logs: LogRecorder? = nil
    ) async throws -> TestServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let (app, directory, logger) = try await build(configure, routes: routes, logs: logs) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestServerError.didNotStart }
        return TestServer(app: app, port: port, directory: directory, running: (group, task))
    }

    /// The service built but not listening: its router runs in process, with no socket and no TLS.
    static func built(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        let (app, directory, _) = try await build(configure, routes: { _ in }, onServerRunning: { _ in })
        return TestServer(app: app, port: 0, directory: directory, running: nil)
    }

    private static func build(
        _ configure: (inout ServerConfiguration) -> Void, routes: (Router<CarnetRequestContext>) -> Void,
        logs: LogRecorder? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) async throws -> (CarnetApplication, URL, Logger) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "carnet-server-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.port = 0
        configuration.tokenCacheLifetime = .zero
        // The tests share two loaded cores, where an operation can wait longer than the 10 s execution budget
        // without doing anything wrong; the budget has tests of its own.
        configuration.graphQLLimits.maxExecutionTime = .seconds(3_600)
        // Likewise a body the test process itself sends can take longer than 10 s to arrive there (a 400 KB body
        // over HTTP/2 got 408); the body timeout has tests of its own (LimitsTests).
        configuration.bodyTimeout = .seconds(120)
        // And a socket's connection_init, sent by the test process right after the upgrade (4408 has its test).
        configuration.webSocketInitTimeout = .seconds(120)
        // And a raw connection's first request head, written by a task of the test process once connected: in a
        // whole suite on two cores it once came after the 10 s limit, and the server closed before answering
        // (the first-request deadline has tests of its own, ConnectionLimitTests).
        configuration.firstRequestTimeout = .seconds(120)
        configure(&configuration)
        var logger = logs?.logger(label: "carnet-test") ?? Logger(label: "carnet-test")
        logger.logLevel = logs?.level ?? .warning
        let app = try await buildApplication(
            configuration: configuration, logger: logger, onServerRunning: onServerRunning, additionalRoutes: routes)
        return (app, directory, logger)
    }

    private init(
        app: CarnetApplication, port: Int, directory: URL, running: (group: ServiceGroup, task: Task<Void, any Error>)?
    ) {
        self.app = app
        self.port = port
        self.directory = directory
        self.running = running
    }

    /// A new token's text.
    func token(_ scopes: Set<AccessScope> = [.read, .write], authors: [String] = [], name: String = "test") async throws
        -> String
    {
        try await app.tokens.create(name: name, scopes: scopes, authors: authors).token
    }

    /// A new token of a principal's (the admin's is ``token(_:authors:name:)``), limited to `books` when given.
    func token(for principal: Principal, _ scopes: Set<AccessScope> = [.read, .write], books: [String]? = nil)
        async throws -> String
    {
        try await app.tokens.create(name: "test", scopes: scopes, principalID: principal.id, bookIDs: books).token
    }

    /// Graceful shutdown, as on SIGTERM; returns when the service has stopped.
    func stop() async throws {
        if let running {
            await running.group.triggerGracefulShutdown()
            try await running.task.value
        }
        try? await app.backend.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server and says whether it stopped within `limit`, running `meanwhile` beside the stop: a bound on
    /// a hang, far past what a loaded machine needs and far short of the limits a test means to show unused.
    func stops(within limit: Duration, meanwhile: @escaping @Sendable () async throws -> Void = {}) async throws
        -> Bool
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.stop()
                return true
            }
            group.addTask {
                try await meanwhile()
                try await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }
}

enum TestServerError: Error {
    case notADataFolder
    case didNotStart
}

/// Runs `body` with a started server and stops it afterwards, also when `body` throws.
func withServer<T>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    routes: (Router<CarnetRequestContext>) -> Void = { _ in }, logs: LogRecorder? = nil,
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(configure, routes: routes, logs: logs)
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

/// Runs `body` with the service's router driven in process by HummingbirdTesting (`.router`: the same router,
/// middleware and handlers, no socket and no TLS), for HTTP behaviour that does not depend on the transport. No
/// timer, port or handshake is involved, so these tests hold on a loaded machine.
func withRouter<T: Sendable>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestServer, TestClient) async throws -> T
) async throws -> T {
    let server = try await TestServer.built(configure)
    do {
        let result = try await server.app.server.test(.router) { client in
            try await body(server, TestClient(router: client))
        }
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

extension CarnetApplication {
    /// The backend as the data folder the tests' servers run on, for tests of its files.
    var dataFolder: DataFolder {
        get throws {
            guard let folder = backend as? DataFolder else { throw TestServerError.notADataFolder }
            return folder
        }
    }
}
