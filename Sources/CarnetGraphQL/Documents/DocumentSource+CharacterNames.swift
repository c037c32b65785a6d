extension DocumentSource {
    /// A lexer error naming the character it stopped at, with graphql-js's name for the one in the client's text.
    ///
    /// GraphQLSwift names it by its first UTF-8 byte taken as Latin-1 (`é` as `Ã`, `🙂` as `ð`) and writes control
    /// characters raw (a NUL inside the message); graphql-js writes `"x"` for printable ASCII and `U+00E9` for the
    /// rest, which says what was sent. The name is replaced only where the text's byte at the error is the one the
    /// library named; `nil` for any other message.
    func renamingCharacter(_ message: String, atParsedOffset offset: Int) -> String? {
        guard message.hasSuffix("."), let named = message.dropLast().last,
            let scalar = named.unicodeScalars.first, named.unicodeScalars.count == 1, scalar.value < 0x100,
            let name = characterName(atParsedOffset: offset, firstByte: UInt8(scalar.value))
        else { return nil }
        let head = message.dropLast(2)
        for lead in ["Syntax Error: Unexpected character ", "Syntax Error: Invalid character "] where head == lead {
            return lead.dropLast() + ": " + name + "."
        }
        for lead in [
            "Syntax Error: Invalid number, expected digit but got: ", "Syntax Error: Invalid character within String: ",
            "Syntax Error: Invalid character within BlockString: ",
        ] where head == lead {
            return lead + name + "."
        }
        return nil
    }

    /// `"x"` for a printable ASCII character at `offset` (UTF-8, in the parsed text), else `U+XXXX`; `nil` past the
    /// end, or when the character there does not start with `firstByte`.
    func characterName(atParsedOffset offset: Int, firstByte: UInt8) -> String? {
        let position = map.edits.isEmpty ? offset : map.originalOffset(offset)
        let utf8 = original.utf8
        guard position >= 0, position < utf8.count else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: position)
        guard utf8[start] == firstByte, let index = start.samePosition(in: original.unicodeScalars) else { return nil }
        let scalar = original.unicodeScalars[index]
        if (0x20...0x7E).contains(scalar.value) { return scalar == "\"" ? #""\"""# : "\"\(scalar)\"" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
