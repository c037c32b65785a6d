import GRDB

/// An `IN (...)` list padded to a power of two, so a handful of cached statements serves every list length
/// (duplicates in an `IN` list change nothing).
struct InList {
    let placeholders: String
    let arguments: StatementArguments

    init<Value: DatabaseValueConvertible>(_ values: some Collection<Value>) {
        precondition(!values.isEmpty)
        var size = 1
        while size < values.count { size <<= 1 }
        var padded = Array(values)
        padded += Array(repeating: padded[padded.count - 1], count: size - padded.count)
        let power = size.trailingZeroBitCount
        placeholders = power < Self.placeholderTable.count ? Self.placeholderTable[power] : databaseQuestionMarks(count: size)
        arguments = StatementArguments(padded)
    }

    /// `?,?,…` for each power of two up to 1,024 (a list's padded length): built once, not on every read.
    private static let placeholderTable: [String] = (0...10).map { databaseQuestionMarks(count: 1 << $0) }
}
