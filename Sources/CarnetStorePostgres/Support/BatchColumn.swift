import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `INSERT INTO table (book_id, columns) SELECT $1, values FROM unnest(arrays)`: a batch of one book's rows
    /// in one statement and one round trip, whatever its size.
    func insertBatch(into table: String, book: String, _ columns: [BatchColumn], logger: Logger) async throws {
        var bindings = PostgresBindings()
        bindings.append(book)
        var arrays: [String] = []
        var aliases: [String] = []
        for column in columns {
            for array in column.arrays {
                try array.append(&bindings)
                arrays.append("$\(bindings.count)::\(array.type)[]")
                aliases.append(array.alias)
            }
        }
        try await rows(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(table) (book_id, \(columns.map(\.name).joined(separator: ", ")))
                    SELECT $1, \(columns.map(\.value).joined(separator: ", "))
                    FROM unnest(\(arrays.joined(separator: ", "))) AS u(\(aliases.joined(separator: ", ")))
                    """, binds: bindings), logger: logger)
    }
}

/// One column of a batch insert (``PostgresConnection/insertBatch(into:book:_:logger:)``): the arrays it binds and
/// how a row's value is made from them.
struct BatchColumn {
    let name: String
    let arrays: [(alias: String, type: String, append: (inout PostgresBindings) throws -> Void)]
    let value: String

    /// A column whose values are bound as one array of `type`.
    static func values<T: PostgresArrayEncodable>(_ name: String, _ type: String, _ values: [T]) -> BatchColumn {
        BatchColumn(name: name, arrays: [("u_\(name)", type, { try $0.append(values) })], value: "u_\(name)")
    }

    /// Text that may be null: postgres-nio binds no null inside an array, so an array of flags says which are.
    static func optional(_ name: String, _ values: [String?]) -> BatchColumn {
        BatchColumn(
            name: name,
            arrays: [
                ("u_\(name)", "text", { $0.append(values.map { $0 ?? "" }) }),
                ("u_\(name)_null", "bool", { $0.append(values.map { $0 == nil }) }),
            ], value: "CASE WHEN u_\(name)_null THEN NULL ELSE u_\(name) END")
    }
}
