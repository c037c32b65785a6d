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
        placeholders = databaseQuestionMarks(count: size)
        arguments = StatementArguments(padded)
    }
}
