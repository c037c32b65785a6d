import CarnetStore
import GRDB

/// An `IN (...)` list padded to a power of two, so a handful of cached statements serves every list length
/// (duplicates in an `IN` list change nothing).
struct InList {
    let placeholders: String
    let arguments: StatementArguments

    init<Value: DatabaseValueConvertible>(_ values: some Collection<Value>) {
        var padded = Array(values)
        if let last = padded.last {
            padded += repeatElement(last, count: Self.paddedCount(padded.count) - padded.count)
        }
        placeholders = Self.placeholders(padded.count)
        arguments = StatementArguments(padded)
    }

    /// The list's length once padded: the next power of two (at least 1).
    static func paddedCount(_ count: Int) -> Int {
        var size = 1
        while size < count { size <<= 1 }
        return size
    }

    /// `?,?,…` for a list of `count` values once padded to ``paddedCount(_:)``, as ``bind(_:to:)`` binds them.
    static func placeholders(_ count: Int) -> String {
        let size = paddedCount(count)
        let power = size.trailingZeroBitCount
        return power < placeholderTable.count ? placeholderTable[power] : databaseQuestionMarks(count: size)
    }

    /// Binds the values, padded to ``paddedCount(_:)`` with the last one, without building GRDB's arguments.
    static func bind<Value: SQLiteKeyValue>(_ values: some Collection<Value>, to binder: inout SQLiteBinder) {
        var last: Value?
        for value in values {
            value.bind(to: &binder)
            last = value
        }
        guard let last else { return }
        for _ in values.count..<paddedCount(values.count) { last.bind(to: &binder) }
    }

    /// `?,?,…` for each power of two up to 1,024 (a list's padded length): built once, not on every read.
    private static let placeholderTable: [String] = (0...10).map { databaseQuestionMarks(count: 1 << $0) }
}
