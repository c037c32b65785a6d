import CarnetStore
import PostgresNIO

extension StoreError {
    /// The one place PostgreSQL's failures become store errors, so no postgres-nio type leaves the backend:
    /// serialization failures, deadlocks, lock timeouts, lost connections and a server shutting down or out of
    /// connections are ``Code/unavailable`` (retry; nothing was committed), a full disk ``Code/storageFull``, a
    /// unique key taken by a concurrent writer ``Code/insertedRecordAlreadyExists``, data corruption and I/O errors
    /// ``Code/storageFailure``, as is any other refusal by the server, named by its SQLSTATE. Store errors pass
    /// through; anything else is returned as it is, a bug the edge logs as internal. Messages carry SQLSTATE codes
    /// only: the server's own messages may quote data.
    static func mapped(_ error: any Error) -> any Error {
        if let error = error as? PostgresTransactionError {
            // A failed transaction: the closure's error first, else the failed BEGIN, COMMIT or ROLLBACK.
            if let closure = error.closureError { return mapped(closure) }
            if let begin = error.beginError { return mapped(begin) }
            if let commit = error.commitError { return mapped(commit) }
            return error
        }
        guard let error = error as? PSQLError else {
            // The pool's own errors (no connection could be made, the pool shut down) come from a module
            // postgres-nio does not export as a product: recognised by their type's name.
            if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") {
                return unavailable("The database cannot be reached")
            }
            return error
        }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
                .queryCancelled, .sslUnsupported, .failedToAddSSLHandler:
                return unavailable("The database cannot be reached")
            default:
                return error
            }
        }
        // Any other refusal names its SQLSTATE: postgres-nio's own description of it says nothing, and an operator
        // starting a server or a migration saw only "PSQLError – Generic description" (an outside tester's find).
        return mapped(sqlState: state)
            ?? StoreError(.storageFailure, "PostgreSQL refused a statement (SQLSTATE \(state)).")
    }

    /// The store error for a SQLSTATE, or `nil` for one the backend does not expect.
    static func mapped(sqlState state: String) -> StoreError? {
        switch state {
        case "40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "53300", "08000", "08003", "08006":
            return unavailable("The database is busy or restarting (SQLSTATE \(state))")
        case "53100":
            return StoreError(.storageFull, "The database's disk is full; nothing was written.")
        case "23505":
            return StoreError(.insertedRecordAlreadyExists, "A concurrent save took the same identifier or name.")
        // Bad input that got past validation (text with U+0000, a value too large for an index entry): the store
        // refuses such values up front, so this is a guard, never the usual path.
        case "22021", "22P05", "54000":
            return StoreError(.validationFailed, "A value cannot be stored (SQLSTATE \(state)); nothing was written.")
        case "42501":
            return StoreError(
                .storageFailure,
                "PostgreSQL denied the database user a statement (SQLSTATE 42501, insufficient privilege): the user "
                    + "must be allowed to create tables in the database's public schema, or own it.")
        case "XX001", "XX002", "58030":
            return StoreError(.storageFailure, "The database could not be read or written (SQLSTATE \(state)).")
        default:
            return nil
        }
    }

}
