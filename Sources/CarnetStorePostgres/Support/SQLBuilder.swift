import PostgresNIO

/// A statement assembled from parts with numbered parameters (`$1`, `$2`, …), for queries whose shape depends on
/// the request (which keys, which conditions). Values are always bound, never spliced into the text.
struct SQLBuilder {
    private(set) var bindings = PostgresBindings()

    /// Binds a value and returns its placeholder.
    mutating func bind<Value: PostgresThrowingDynamicTypeEncodable>(_ value: Value) throws -> String {
        try bindings.append(value)
        return "$\(bindings.count)"
    }

    func query(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: bindings) }
}
