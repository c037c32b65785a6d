extension DocumentSource {
    /// A lexer error naming the character it stopped at, with graphql-js's name for the one in the client's text.
    ///
    /// GraphQLSwift names it by its first UTF-8 byte taken as Latin-1 (`é` as `Ã`, `🙂` as `ð`) and writes control
    /// characters raw (a NUL inside the message); graphql-js writes `"x"` for printable ASCII and `U+00E9` for the
    /// rest, which says what was sent. `nil` for any other message.
    func renamingCharacter(_ message: String, atParsedOffset offset: Int) -> String? {
        for lead in ["Syntax Error: Unexpected character ", "Syntax Error: Invalid character "]
        where message.hasPrefix(lead) && message.count == lead.count + 2 && message.hasSuffix(".") {
            guard let name = characterName(atParsedOffset: offset) else { return nil }
            return lead.dropLast() + ": " + name + "."
        }
        return nil
    }

    /// `"x"` for a printable ASCII character at `offset` (UTF-8, in the parsed text), else `U+XXXX`; `nil` past
    /// the end.
    func characterName(atParsedOffset offset: Int) -> String? {
        let position = map.edits.isEmpty ? offset : map.originalOffset(offset)
        let utf8 = original.utf8
        guard position >= 0, position < utf8.count,
            let index = utf8.index(utf8.startIndex, offsetBy: position).samePosition(in: original.unicodeScalars)
        else { return nil }
        let scalar = original.unicodeScalars[index]
        if (0x20...0x7E).contains(scalar.value) { return scalar == "\"" ? #""\"""# : "\"\(scalar)\"" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
