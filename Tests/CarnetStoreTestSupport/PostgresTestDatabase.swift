import CarnetStore
import CarnetStorePostgres
import Foundation
import Logging
import PostgresNIO

/// A throwaway database on the test PostgreSQL server, for the PostgreSQL backend's tests.
///
/// `CARNET_TEST_POSTGRES_URL` names the server (`postgres://postgres@localhost:54329/postgres`;
/// `scripts/postgres_test_cluster.sh` starts one and prints it). Each test gets a database of its own, created from
/// that URL and dropped afterwards. Without the URL the PostgreSQL cases are left out, unless
/// `CARNET_REQUIRE_POSTGRES=1` (CI) makes them run and fail.
package enum PostgresTestDatabase {
    package static var url: String? {
        guard let url = ProcessInfo.processInfo.environment["CARNET_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }

    package static var isConfigured: Bool { url != nil }
    package static var isRequired: Bool { ProcessInfo.processInfo.environment["CARNET_REQUIRE_POSTGRES"] == "1" }

    package struct NotConfigured: Error, CustomStringConvertible {
        package var description: String {
            "CARNET_REQUIRE_POSTGRES=1 but CARNET_TEST_POSTGRES_URL is not set: start a server with scripts/postgres_test_cluster.sh"
        }
    }

    /// Runs `body` with the location of a new, empty database, dropped afterwards.
    package static func with<T>(_ body: (PostgresLocation) async throws -> T) async throws -> T {
        guard let url else { throw NotConfigured() }
        var server = try PostgresLocation(url: url)
        // A bound on a hang, not a race: a loaded test run can keep the cooperative threads busy for seconds.
        server.connectTimeout = .seconds(600)
        // Many backends open at once in a test run, each with its pool: small pools stay within the server's
        // connections (scripts/postgres_test_cluster.sh allows 500).
        server.poolSize = 4
        let logger = Logger(label: "carnet.tests.postgres")
        let admin = try await PostgresDatabase.connect(server, logger: logger)
        let name = "carnet_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        do {
            _ = try await admin.read { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            }
        } catch {
            await admin.close()
            throw error
        }
        var location = server
        location.database = name
        let result: Result<T, any Error>
        do {
            result = .success(try await body(location))
        } catch {
            result = .failure(error)
        }
        _ = try? await admin.read { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        }
        await admin.close()
        return try result.get()
    }

    /// The database the conformance suite's stores share: each fixture is a new book in it, as a deployment's
    /// books share one database. Kept between runs (books never collide: their ids are random); made on first use.
    static let sharedName = "carnet_conformance"

    private static let shared = SharedBackend()

    /// A new, empty book's store in the shared database.
    package static func newBook(configuration: StoreConfiguration) async throws -> PostgresStore {
        let backend = try await shared.backend()
        let book = AddressBook(id: UUID().uuidString, name: "Test", ownerID: "tests")
        return try await PostgresBooks.open(backend, configuration: configuration).store(book)
    }

    /// The book's store through a new handle, as another instance or a restarted one sees it.
    package static func reopen(_ store: PostgresStore, configuration: StoreConfiguration) async throws
        -> PostgresStore
    {
        let backend = try await shared.backend()
        let book = AddressBook(id: store.bookID, name: "Test", ownerID: "tests")
        return try await PostgresBooks.open(backend, configuration: configuration).store(book)
    }

    /// The shared database's location, made (and migrated) on first use.
    package static func sharedLocation() async throws -> PostgresLocation { try await shared.location() }

    /// Connects once per test process, creating and migrating the shared database if needed.
    private actor SharedBackend {
        private var opened: PostgresBackend?
        private var sharedLocation: PostgresLocation?

        func location() async throws -> PostgresLocation {
            _ = try await backend()
            guard let sharedLocation else { throw NotConfigured() }
            return sharedLocation
        }

        func backend() async throws -> PostgresBackend {
            if let opened { return opened }
            guard let url else { throw NotConfigured() }
            var server = try PostgresLocation(url: url)
            server.connectTimeout = .seconds(600)
            server.poolSize = 8
            let logger = Logger(label: "carnet.tests.postgres")
            let admin = try await PostgresDatabase.connect(server, logger: logger)
            _ = try? await admin.read { connection in
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE DATABASE \(PostgresTestDatabase.sharedName)"), logger: logger)
            }
            await admin.close()
            var location = server
            location.database = PostgresTestDatabase.sharedName
            let backend = try await PostgresBackend.open(location)
            opened = backend
            sharedLocation = location
            return backend
        }
    }
}

extension PostgresLocation {
    /// The location as a URL for a child process or a server under test, its connect timeout a bound on a hang (a
    /// loaded test run can delay the first answer past the default 10 s), not a race.
    package var testURL: String { description + "&connect_timeout=600" }
}
