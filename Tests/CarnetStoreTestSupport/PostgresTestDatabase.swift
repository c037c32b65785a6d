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
}
