/// The 2021 spec's string escapes that GraphQLSwift's lexer (4.3.0) gets wrong, rewritten in the text before the
/// library lexes it: a surrogate pair `\uD83D\uDE00` (the library decodes each half alone and fails) and braced
/// escapes `\u{1F600}` (the library fails with a message that prints Swift internals), and `\f` (which the library
/// decodes as U+0012 instead of U+000C). Also the raw control characters (U+0000–U+001F but tab and line breaks)
/// that the 2021 spec allows in strings, block strings and comments, where the library keeps to the 2018 grammar
/// and fails: in a string each becomes its four-digit escape, and in a comment a space. And block strings: the
/// library's value of one splits a CRLF into two lines and takes a common indentation of 0 for none (so
/// `"""\nx\n  y"""` lost its `x`); every block string becomes the string of its value as the spec gives it.
///
/// Carnet rewrites the text rather than replacing the library's lexer: every other token stays the library's to
/// read, and only strings with these escapes change. Each such escape becomes a representation the library decodes
/// to the same character (the character itself, or a short or four-digit escape for quotes, backslashes and
/// control characters), and ``SourceMap`` maps offsets in the rewritten text back to the client's, so error
/// locations stay exact. Lone surrogates, braced surrogates, values past U+10FFFF and malformed `\u` escapes are
/// syntax errors with graphql-js's message, reported here.
enum StringEscapes {
    struct Failure: Error, Equatable {
        var message: String
        /// The byte offset of the escape in the client's text.
        var offset: Int
    }

    struct Rewrite {
        var text: String
        var map: SourceMap
    }

    /// The rewritten text, or `nil` when nothing needs rewriting (the common case: no copy is made).
    static func rewrite(_ bytes: [UInt8]) throws(Failure) -> Rewrite? {
        var output: [UInt8] = []
        var copied = 0
        var edits: [SourceMap.Edit] = []
        var index = 0
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        func at(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    if isRawControl(bytes[index]) {
                        output.append(contentsOf: bytes[copied..<index])
                        output.append(UInt8(ascii: " "))
                        edits.append(SourceMap.Edit(rewrittenEnd: output.count, originalEnd: index + 1))
                        copied = index + 1
                    }
                    index += 1
                }
            case quote where at(index + 1) == quote && at(index + 2) == quote:
                // Block strings have no escapes but `\"""`.
                let start = index
                index += 3
                while index < bytes.count, !(at(index) == quote && at(index + 1) == quote && at(index + 2) == quote) {
                    let escapedQuotes =
                        at(index) == backslash && at(index + 1) == quote && at(index + 2) == quote
                        && at(index + 3) == quote
                    index += escapedQuotes ? 4 : 1
                }
                index += 3
                if index <= bytes.count {
                    output.append(contentsOf: bytes[copied..<start])
                    output.append(contentsOf: quoted(blockStringValue(bytes[start + 3..<index - 3])))
                    edits.append(SourceMap.Edit(rewrittenEnd: output.count, originalEnd: index))
                    copied = index
                }
            case quote:
                index += 1
                while index < bytes.count, bytes[index] != quote, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    if isRawControl(bytes[index]) {
                        output.append(contentsOf: bytes[copied..<index])
                        output.append(contentsOf: representation(of: Unicode.Scalar(bytes[index])))
                        edits.append(SourceMap.Edit(rewrittenEnd: output.count, originalEnd: index + 1))
                        index += 1
                        copied = index
                        continue
                    }
                    guard bytes[index] == backslash else {
                        index += 1
                        continue
                    }
                    if at(index + 1) == UInt8(ascii: "f") {
                        // The library decodes `\f` as U+0012; the four-digit form it decodes right.
                        output.append(contentsOf: bytes[copied..<index])
                        output.append(contentsOf: Array(#"\u000C"#.utf8))
                        edits.append(SourceMap.Edit(rewrittenEnd: output.count, originalEnd: index + 2))
                        index += 2
                        copied = index
                        continue
                    }
                    guard at(index + 1) == UInt8(ascii: "u") else {
                        // A backslash before a line break does not carry the string over it: the lexer ends the
                        // string there (with an error), and so must this, or the two would disagree on what is text.
                        index += at(index + 1) == 0x0A || at(index + 1) == 0x0D ? 1 : 2
                        continue
                    }
                    guard let (scalar, length) = try unicodeEscape(bytes, at: index) else {
                        index += 6
                        continue
                    }
                    output.append(contentsOf: bytes[copied..<index])
                    let replacement = representation(of: scalar)
                    output.append(contentsOf: replacement)
                    edits.append(
                        SourceMap.Edit(
                            rewrittenEnd: output.count, originalEnd: index + length))
                    index += length
                    copied = index
                }
                index += 1
            default:
                index += 1
            }
        }
        guard !edits.isEmpty else { return nil }
        output.append(contentsOf: bytes[copied...])
        return Rewrite(text: String(decoding: output, as: UTF8.self), map: SourceMap(edits: edits))
    }

    /// The escape at `start` (a backslash followed by `u`): the scalar and the escape's length in bytes when it
    /// needs rewriting, `nil` when the library decodes it right (four digits, not a surrogate).
    private static func unicodeEscape(_ bytes: [UInt8], at start: Int) throws(Failure) -> (Unicode.Scalar, Int)? {
        if start + 2 < bytes.count, bytes[start + 2] == UInt8(ascii: "{") {
            var end = start + 3
            var value: UInt32 = 0
            while end < bytes.count, let digit = hexValue(bytes[end]) {
                value = value > 0x10FFFF ? value : value << 4 | digit
                end += 1
            }
            guard end > start + 3, end < bytes.count, bytes[end] == UInt8(ascii: "}"),
                let scalar = Unicode.Scalar(value)
            else { throw invalid(bytes, start, through: min(end, bytes.count - 1)) }
            return (scalar, end + 1 - start)
        }
        guard let leading = fourDigits(bytes, start + 2) else { throw invalid(bytes, start, through: start + 5) }
        switch leading {
        case 0xD800...0xDBFF:
            guard start + 7 < bytes.count, bytes[start + 6] == UInt8(ascii: "\\"),
                bytes[start + 7] == UInt8(ascii: "u"),
                let trailing = fourDigits(bytes, start + 8), (0xDC00...0xDFFF).contains(trailing),
                let scalar = Unicode.Scalar(0x10000 + ((leading - 0xD800) << 10) + (trailing - 0xDC00))
            else { throw invalid(bytes, start, through: start + 5) }
            return (scalar, 12)
        case 0xDC00...0xDFFF:
            throw invalid(bytes, start, through: start + 5)
        default:
            return nil
        }
    }

    /// Bytes the library's lexer decodes to `scalar`: the character itself, or an escape where a string may
    /// not hold it raw.
    static func representation(of scalar: Unicode.Scalar) -> [UInt8] {
        switch scalar.value {
        case 0x22: return Array(#"\""#.utf8)
        case 0x5C: return Array(#"\\"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        case 0x09: return [0x09]
        case ..<0x20:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: return Array(String(Character(scalar)).utf8)
        }
    }

    /// A control character the 2021 grammar allows in strings and comments and the 2018 one (the library's)
    /// does not: tab and line breaks were allowed already.
    private static func isRawControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    private static func fourDigits(_ bytes: [UInt8], _ start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            guard let digit = hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// graphql-js's message, quoting the escape as written (up to `end`, within its line and string).
    private static func invalid(_ bytes: [UInt8], _ start: Int, through end: Int) -> Failure {
        var stop = start + 1
        while stop < min(end + 1, bytes.count), stop - start < 16, bytes[stop] != UInt8(ascii: "\""),
            bytes[stop] != 0x0A,
            bytes[stop] != 0x0D
        {
            stop += 1
        }
        let written = String(decoding: bytes[start..<stop], as: UTF8.self)
        return Failure(message: "Syntax Error: Invalid Unicode escape sequence: \"\(written)\".", offset: start)
    }
}
