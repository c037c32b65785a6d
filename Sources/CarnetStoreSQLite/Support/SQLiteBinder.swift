import CarnetStore
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// Binds a statement's parameters in order, straight through SQLite: an import binds millions of values, and
/// building GRDB's argument arrays cost more than the inserts. ``execute()`` steps the statement itself.
struct SQLiteBinder {
    private let statement: SQLiteStatement
    private var index: Int32 = 1

    /// SQLite copies the bytes (SQLITE_TRANSIENT): the Swift string may go away before the statement runs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: Statement) { self.init(statement.sqliteStatement) }

    init(_ statement: SQLiteStatement) {
        self.statement = statement
        sqlite3_reset(statement)
    }

    mutating func int64(_ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
        index += 1
    }

    mutating func double(_ value: Double) {
        sqlite3_bind_double(statement, index, value)
        index += 1
    }

    mutating func text(_ value: String) {
        var value = value
        let (statement, index) = (self.statement, self.index)
        value.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    _ = sqlite3_bind_text(statement, index, $0, Int32(bytes.count), Self.transient)
                }
            } else {
                _ = sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
        }
        self.index += 1
    }

    /// Runs the bound statement to completion. - Throws: `DatabaseError` with SQLite's extended code, so
    /// `catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE` works as with GRDB's own execution.
    func execute() throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let error = DatabaseError.last(on: sqlite3_db_handle(statement))
            sqlite3_reset(statement)
            throw error
        }
        sqlite3_reset(statement)
    }

    mutating func optionalText(_ value: String?) {
        if let value {
            text(value)
        } else {
            sqlite3_bind_null(statement, index)
            index += 1
        }
    }
}

extension DatabaseError {
    /// The connection's last error, with SQLite's extended code (so `catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE`
    /// works as with GRDB's own execution), for statements run straight through SQLite.
    static func last(on connection: SQLiteConnection?) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)))
    }
}
