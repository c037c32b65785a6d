import CarnetStore
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// The rows of a statement bound with ``SQLiteBinder``, stepped straight through SQLite: `while let columns = try
/// rows.next() { ... }`. The statement is reset when the rows go away, also when the reader stops early, so a
/// cached statement never holds a read open.
struct SQLiteSteppedRows: ~Copyable {
    private let statement: SQLiteStatement

    init(_ statement: SQLiteStatement) { self.statement = statement }

    /// The next row's columns, or `nil` after the last row. - Throws: `DatabaseError` with SQLite's extended code.
    func next() throws -> SQLiteColumns? {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return SQLiteColumns(statement)
        case SQLITE_DONE: return nil
        default: throw DatabaseError.last(on: sqlite3_db_handle(statement))
        }
    }

    deinit { sqlite3_reset(statement) }
}

/// A value a contact is looked up by (`rowid` or `id`), bound and read straight through SQLite.
protocol SQLiteKeyValue: Hashable {
    static func read(_ columns: SQLiteColumns, _ index: Int32) -> Self
    func bind(to binder: inout SQLiteBinder)
}

extension Int64: SQLiteKeyValue {
    static func read(_ columns: SQLiteColumns, _ index: Int32) -> Int64 { columns.int64(index) }
    func bind(to binder: inout SQLiteBinder) { binder.int64(self) }
}

extension String: SQLiteKeyValue {
    static func read(_ columns: SQLiteColumns, _ index: Int32) -> String { columns.string(index) }
    func bind(to binder: inout SQLiteBinder) { binder.text(self) }
}
