import CarnetStore
import Logging
import PostgresNIO

/// What became of a transaction whose COMMIT was sent and whose answer the connection lost (a failover, a
/// terminated backend): PostgreSQL keeps the status of recent transactions (`txid_status`, made for this), and a
/// fresh connection reads it, so that the caller hears "saved" or "not saved, retry" instead of "may have been
/// written".
enum CommitOutcome {
    /// How long to wait for a commit still in progress on the server (the backend that ran it still finishing).
    static let inProgressChecks = 20
    static let inProgressPause = Duration.milliseconds(50)

    /// Faults for tests: a COMMIT whose answer is lost, after the server made it or after it rolled back instead;
    /// or made, and the connection then ended by the server (a real FATAL error, as a server shut down at once
    /// sends).
    enum Fault: Sendable { case answerLostAfterCommit, answerLostAfterRollback, serverEndedAfterCommit }
    @TaskLocal static var fault: Fault?

    /// Reads the status of transaction `xid` on a connection of `client`: returns when it committed; throws
    /// ``StoreError`` `unavailable` saying whether anything was written otherwise. A database that cannot be
    /// reached leaves it unknown.
    static func resolve(_ xid: Int64, on client: PostgresClient, logger: Logger) async throws {
        var status: String?
        do {
            for check in 0..<inProgressChecks {
                status = try await client.withConnection { connection in
                    try await connection.rows("SELECT txid_status(\(xid))", logger: logger)
                        .decode(String?.self).array().first ?? nil
                }
                guard status == "in progress", check + 1 < inProgressChecks else { break }
                try await Task.sleep(for: inProgressPause)
            }
        } catch {
            throw unknown
        }
        switch status {
        case "committed":
            return
        case "aborted":
            throw StoreError.unavailable("The database connection was lost during the commit")
        default:
            // In progress for too long, or too old for the server to know.
            throw unknown
        }
    }

    static var unknown: StoreError {
        var error = StoreError(
            .unavailable,
            "The database connection was lost during the commit: it may have been written. Read it back before retrying."
        )
        error.retryAfter = .seconds(1)
        return error
    }
}
