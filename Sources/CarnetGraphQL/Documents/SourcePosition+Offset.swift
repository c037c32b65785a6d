extension SourcePosition {
    /// The line and column of each UTF-8 byte offset in a document, in one pass over the text however many
    /// offsets there are. Lines end at `\n`, `\r\n` or `\r`, as the spec's LineTerminator says; columns count
    /// Unicode code points, as graphql-core does, not bytes (GraphQLSwift counts bytes, and finds lines with
    /// UTF-16 offsets).
    static func positions<Text: RandomAccessCollection<UInt8>>(ofUTF8Offsets offsets: [Int], in bytes: Text)
        -> [SourcePosition]
    where Text.Index == Int {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = [SourcePosition](repeating: SourcePosition(line: 1, column: 1), count: offsets.count)
        var line = 1
        var column = 1
        var index = 0
        for slot in order {
            let target = min(max(offsets[slot], 0), bytes.count)
            while index < target {
                switch bytes[index] {
                case 0x0A:
                    line += 1
                    column = 1
                case 0x0D:
                    if index + 1 < bytes.count, bytes[index + 1] == 0x0A, index + 1 < target { index += 1 }
                    line += 1
                    column = 1
                case let byte where byte & 0xC0 != 0x80:
                    // A code point starts at every byte that is not a continuation byte (10xxxxxx).
                    column += 1
                default:
                    break
                }
                index += 1
            }
            result[slot] = SourcePosition(line: line, column: column)
        }
        return result
    }

    /// The line and column of one UTF-8 byte offset; see ``positions(ofUTF8Offsets:in:)``.
    init(utf8Offset offset: Int, in bytes: [UInt8]) {
        self = Self.positions(ofUTF8Offsets: [offset], in: bytes)[0]
    }
}
