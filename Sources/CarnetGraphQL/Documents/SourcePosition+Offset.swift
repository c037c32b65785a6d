extension SourcePosition {
    /// The line and column of a UTF-8 byte offset in a document. Lines end at `\n`, `\r\n` or `\r`, as the spec's
    /// LineTerminator says; columns count Unicode code points, as graphql-core does, not bytes.
    init(utf8Offset offset: Int, in bytes: [UInt8]) {
        var line = 1
        var lineStart = 0
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            switch bytes[index] {
            case 0x0A:
                line += 1
                lineStart = index + 1
            case 0x0D:
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                line += 1
                lineStart = index + 1
            default:
                break
            }
            index += 1
        }
        // A code point starts at every byte that is not a continuation byte (10xxxxxx).
        var column = 1
        for position in lineStart..<max(lineStart, end) where bytes[position] & 0xC0 != 0x80 { column += 1 }
        self.init(line: line, column: column)
    }
}
