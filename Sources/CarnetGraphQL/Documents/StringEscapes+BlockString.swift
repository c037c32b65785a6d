/// Block strings, whose value the library gets wrong (CRLF, no common indentation) and whose raw control
/// characters its 2018 grammar refuses: ``StringEscapes`` rewrites each as the string of its value.
extension StringEscapes {
    /// The value of a block string whose text between its quotes is `raw` (the 2021 spec's BlockStringValue):
    /// `\"""` is three quotes; the common indentation of the lines after the first is removed, then leading and
    /// trailing blank lines; lines are joined with line feeds.
    static func blockStringValue(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        let quote = UInt8(ascii: "\"")
        var text: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "\\"),
                raw[index...].dropFirst().prefix(3).elementsEqual([quote, quote, quote])
            {
                text += [quote, quote, quote]
                index += 4
            } else {
                text.append(raw[index])
                index += 1
            }
        }
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        index = 0
        while index < text.count {
            guard text[index] == 0x0A || text[index] == 0x0D else {
                index += 1
                continue
            }
            lines.append(text[lineStart..<index])
            index += text[index] == 0x0D && index + 1 < text.count && text[index + 1] == 0x0A ? 2 : 1
            lineStart = index
        }
        lines.append(text[lineStart...])
        func isWhiteSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var commonIndent: Int?
        for line in lines.dropFirst() {
            let indent = line.prefix(while: isWhiteSpace).count
            if indent < line.count, indent < commonIndent ?? .max { commonIndent = indent }
        }
        if let commonIndent {
            for position in lines.indices.dropFirst() { lines[position] = lines[position].dropFirst(commonIndent) }
        }
        // Sliced, not removed one by one: 50,000 blank lines would be as many shifts of the array.
        guard let first = lines.firstIndex(where: { !$0.allSatisfy(isWhiteSpace) }),
            let last = lines.lastIndex(where: { !$0.allSatisfy(isWhiteSpace) })
        else { return [] }
        return Array(lines[first...last].joined(separator: [0x0A]))
    }

    /// `value` as a string token the library decodes back to it.
    static func quoted(_ value: [UInt8]) -> [UInt8] {
        var token: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                token += representation(of: Unicode.Scalar(byte))
            } else {
                token.append(byte)
            }
        }
        token.append(UInt8(ascii: "\""))
        return token
    }
}
