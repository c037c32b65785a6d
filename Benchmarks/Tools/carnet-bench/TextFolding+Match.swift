import CarnetStore

// The hand-written SQL computes its keys with the store's own `TextFolding`, so both sides search the same values.
extension TextFolding {
    /// The FTS5 query for a name: each word a prefix, all required.
    static func match(_ text: String) -> String {
        words(text).map { "\"\($0)\"*" }.joined(separator: " AND ")
    }
}
