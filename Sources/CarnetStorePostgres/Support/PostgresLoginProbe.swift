import CarnetStore
import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// One connection made directly before the pool's first: the pool retries a refused login or a missing database
/// until its timeout and then names neither (an outside tester's find: a wrong password said only
/// "PSQLError – Generic description", a database that does not exist "did not answer within the connect timeout").
enum PostgresLoginProbe {
    /// Throws a clear error when the server refuses the login or lacks the database; anything else (unreachable,
    /// busy) is left to the pool's own attempt, which reports it within the connect timeout.
    static func check(_ location: PostgresLocation, logger: Logger) async throws {
        let tls: PostgresConnection.Configuration.TLS =
            try location.tlsConfiguration().map { .require(try NIOSSLContext(configuration: $0)) } ?? .disable
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = TimeAmount(location.connectTimeout)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch let error as PSQLError {
            if let refusal = refusal(error.serverInfo?[.sqlState], location) { throw refusal }
            return
        } catch {
            return
        }
        try? await connection.close()
    }

    /// The error for a SQLSTATE that no retry can help, or `nil`.
    static func refusal(_ state: String?, _ location: PostgresLocation) -> StoreError? {
        switch state {
        case "28P01", "28000":
            StoreError(
                .storageFailure,
                "PostgreSQL refused the login of user \(location.username) (SQLSTATE \(state ?? "")): check the "
                    + "user and password in the database URL.")
        case "3D000":
            StoreError(
                .storageFailure,
                "PostgreSQL has no database \(location.database) (SQLSTATE 3D000): create it (createdb) or fix the "
                    + "database URL.")
        default: nil
        }
    }
}
