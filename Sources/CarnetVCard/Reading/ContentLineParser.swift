import Foundation

/// Parses a logical line into a ``ContentLine``.
enum ContentLineParser {
    /// vCard 2.1 bare parameters that name an encoding rather than a type.
    private static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]

    static func parse(_ line: RawLine, in buffer: UnsafeBufferPointer<UInt8>, cardLine: Int) throws(VCardIssue)
        -> ContentLine
    {
        let bytes = buffer[line.range]
        var index = bytes.startIndex
        var nameStart = index
        var group: String?
        // The name runs to the first `;` or `:`; a `.` before that ends a group.
        while index < bytes.endIndex, bytes[index] != Byte.semicolon, bytes[index] != Byte.colon {
            if bytes[index] == Byte.dot, group == nil {
                group = Self.nameText(bytes[nameStart..<index])
                nameStart = index + 1
            }
            index += 1
        }
        guard index < bytes.endIndex else {
            throw VCardIssue(line: line.number, cardLine: cardLine, message: "property line without a ':'")
        }
        let name = Self.nameText(bytes[nameStart..<index].trimmingWhitespace)
        guard !name.isEmpty else {
            throw VCardIssue(line: line.number, cardLine: cardLine, message: "property line without a name")
        }
        var parameters: [ContentLine.Parameter] = []
        var types: [String] = []
        if bytes[index] == Byte.semicolon {
            parameters.reserveCapacity(4)
            types.reserveCapacity(4)
        }
        while bytes[index] == Byte.semicolon {
            index += 1
            let start = index
            let parameter = try parseParameter(bytes, at: &index, line: line.number, cardLine: cardLine)
            if let parameter {
                parameters.append(parameter)
                if parameter.name == "TYPE" { appendTypes(bytes[start..<index], to: &types) }
            }
            guard index < bytes.endIndex else {
                throw VCardIssue(line: line.number, cardLine: cardLine, message: "\(name) line without a ':'")
            }
        }
        return ContentLine(
            group: group, name: name, property: Property.byName[name], parameters: parameters, types: types,
            value: bytes[(index + 1)...], raw: bytes, number: line.number)
    }

    /// A property or group name in capitals, without control characters: `E<U+0001>MAIL` is EMAIL, as its kept line
    /// (cleaned of them) would read back, so a file and its export read alike.
    private static func nameText(_ bytes: Bytes) -> String {
        guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return bytes.uppercasedString }
        return String(decoding: bytes.filter { $0 >= 0x20 && $0 != 0x7F }, as: UTF8.self).uppercased()
    }

    /// The lowercased values of one TYPE parameter (`TYPE=a,b`, `TYPE="a,b"` or a bare `A`).
    private static func appendTypes(_ parameter: Bytes, to types: inout [String]) {
        let values = parameter.firstIndex(of: Byte.equals).map { parameter[($0 + 1)...] } ?? parameter
        for part in values.split(separator: Byte.comma) {
            var type = part.trimmingWhitespace
            if type.first == Byte.quote { type = type.dropFirst() }
            if type.last == Byte.quote { type = type.dropLast() }
            type = type.trimmingWhitespace
            if !type.isEmpty { types.append(type.lowercasedString) }
        }
    }

    /// Reads one parameter from `index` up to the `;` or `:` that ends it, which `index` is left on.
    private static func parseParameter(
        _ bytes: Bytes, at index: inout Int, line: Int, cardLine: Int
    ) throws(VCardIssue) -> ContentLine.Parameter? {
        let start = index
        var equals: Int?
        var inQuotes = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == Byte.quote {
                inQuotes.toggle()
            } else if !inQuotes {
                if byte == Byte.semicolon || byte == Byte.colon { break }
                if byte == Byte.equals, equals == nil { equals = index }
            }
            index += 1
        }
        if inQuotes {
            throw VCardIssue(line: line, cardLine: cardLine, message: "unterminated quoted parameter value")
        }
        guard let equals else {
            let written = bytes[start..<index].trimmingWhitespace
            if written.isEmpty { return nil }
            let bare = written.uppercasedString
            // A bare type keeps its case: Android's `TEL;X-Mobil 2:` is a custom label.
            return bareEncodings.contains(bare)
                ? .init(name: "ENCODING", value: bare) : .init(name: "TYPE", value: written.string)
        }
        let name = bytes[start..<equals].trimmingWhitespace.uppercasedString
        return .init(name: name, value: parameterValue(bytes[(equals + 1)..<index]))
    }

    /// A parameter value without its quotes (each comma-separated part may be quoted) and with RFC 6868's
    /// `^n`, `^'` and `^^` decoded.
    private static func parameterValue(_ bytes: Bytes) -> String {
        let trimmed = bytes.trimmingWhitespace
        var text: String
        if trimmed.contains(Byte.quote) {
            text = String(decoding: trimmed.filter { $0 != Byte.quote }, as: UTF8.self)
        } else {
            text = trimmed.string
        }
        if trimmed.contains(Byte.caret) { text = decodeCircumflex(text) }
        return text
    }

    /// By scalar: `^'` before a combining mark is `^` and one Character, which a Character switch left undecoded.
    private static func decodeCircumflex(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pending = false
        for scalar in text.unicodeScalars {
            if pending {
                switch scalar {
                case "n", "N": result.append("\n")
                case "'": result.append("\"")
                case "^": result.append("^")
                default:
                    result.append("^")
                    result.append(scalar)
                }
                pending = false
            } else if scalar == "^" {
                pending = true
            } else {
                result.append(scalar)
            }
        }
        if pending { result.append("^") }
        return String(result)
    }
}
