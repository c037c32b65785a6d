/// Maps byte offsets in the text GraphQLSwift parsed back to the client's text, where ``StringEscapes``
/// rewrote escapes. Empty (and free) for almost every document.
struct SourceMap: Sendable, Hashable {
    /// One rewritten escape: where it ends in the rewritten text and in the original.
    struct Edit: Sendable, Hashable {
        var rewrittenEnd: Int
        var originalEnd: Int
    }

    /// In order of position.
    var edits: [Edit] = []

    /// The client's offset for an offset in the rewritten text (an offset inside a rewritten escape maps to the
    /// offset just after it, never past the next token).
    func originalOffset(_ offset: Int) -> Int {
        var low = 0
        var high = edits.count
        while low < high {
            let middle = (low + high) / 2
            if edits[middle].rewrittenEnd <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return offset }
        let edit = edits[low - 1]
        return offset - edit.rewrittenEnd + edit.originalEnd
    }
}
