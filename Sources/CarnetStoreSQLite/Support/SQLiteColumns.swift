import CarnetStore
import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// Reads columns of the current row straight from the SQLite statement: the page and history paths read
/// thousands of rows, and going through GRDB's generic row decoding cost more than the query.
struct SQLiteColumns {
    let statement: SQLiteStatement

    init(_ statement: Statement) { self.statement = statement.sqliteStatement }

    init(_ statement: SQLiteStatement) { self.statement = statement }

    @inline(__always)
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    @inline(__always)
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }

    @inline(__always)
    func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    @inline(__always)
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    @inline(__always)
    func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always)
    func optionalString(_ index: Int32) -> String? { isNull(index) ? nil : string(index) }

    /// A blob column's bytes, `nil` for NULL (an empty blob is empty data, not `nil`).
    func optionalData(_ index: Int32) -> Data? {
        guard !isNull(index) else { return nil }
        guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
    }
}

/// A statement's rows, each read through ``SQLiteColumns``: `while let columns = try rows.next() { ... }`.
/// GRDB's `Row` cursor sets up a row object for every run of a statement, which costs a point read as much as its
/// decoding; this steps a plain value cursor instead (its value, column 0 as an optional integer, is ignored).
struct SQLiteRows {
    private let cursor: FastDatabaseValueCursor<Int64?>
    private let columns: SQLiteColumns

    init(_ statement: Statement, arguments: StatementArguments = StatementArguments()) throws {
        cursor = try Int64?.fetchCursor(statement, arguments: arguments)
        columns = SQLiteColumns(statement)
    }

    /// The next row's columns, or `nil` after the last row.
    func next() throws -> SQLiteColumns? {
        try cursor.next() == nil ? nil : columns
    }
}

/// The rows of a statement run straight through SQLite with one text argument, for ``PointReaders``' statements
/// (and GRDB's, on the fallback path): `while let columns = try rows.next() { ... }`. The caller resets the
/// statement when done.
struct SQLiteTextQuery {
    private let statement: SQLiteStatement

    init(_ statement: SQLiteStatement, argument: String) {
        self.statement = statement
        var bind = SQLiteBinder(statement)
        bind.text(argument)
    }

    /// The next row's columns, or `nil` after the last row. - Throws: `DatabaseError` with SQLite's extended code.
    func next() throws -> SQLiteColumns? {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return SQLiteColumns(statement)
        case SQLITE_DONE: return nil
        default:
            let error = DatabaseError.last(on: sqlite3_db_handle(statement))
            sqlite3_reset(statement)
            throw error
        }
    }
}
