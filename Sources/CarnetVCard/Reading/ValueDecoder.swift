import Foundation

/// Turns property values into text: transfer encoding (quoted-printable or base64) first, then the version's
/// backslash escapes, then the CHARSET (UTF-8 when none). Separators and escapes are found in the bytes before
/// charset decoding, which is safe because every charset read is ASCII-compatible.
struct ValueDecoder {
    let version: VCardVersion
    let cardLine: Int
    /// ``VCardReader/textIsDecoded``: a value without a transfer encoding is UTF-8 whatever its CHARSET.
    var textIsDecoded = false

    /// The whole value, unescaped.
    func text(_ line: ContentLine) throws(VCardIssue) -> String { try whole(line, uri: false) }

    /// A URI value (URL, a social profile's URL), which export writes without backslash escapes, as URIs have
    /// none: Apple's `\:` (and `\,`, `\;`) are read as the character, any other backslash as itself, so
    /// `file:///C:\new` keeps its `\n`.
    func uri(_ line: ContentLine) throws(VCardIssue) -> String { try whole(line, uri: true) }

    private func whole(_ line: ContentLine, uri: Bool) throws(VCardIssue) -> String {
        let charset = try charset(line)
        let text = try transferDecoded(line) { bytes in
            decode(bytes, charset, uri: uri) ?? fallbackDecode(bytes, line)
        }
        guard let text else { throw invalidText(line) }
        return text
    }

    /// A structured value's components (`;`-separated, as in N, ADR, ORG), each unescaped.
    func components(_ line: ContentLine) throws(VCardIssue) -> [String] {
        try parts(line, Byte.semicolon, nil)
    }

    /// A list value's items (`,`-separated, as in CATEGORIES and NICKNAME; `;` too, which some 2.1 writers use).
    func list(_ line: ContentLine) throws(VCardIssue) -> [String] {
        try parts(line, Byte.comma, Byte.semicolon)
    }

    /// The unfolded line as in the file, for properties kept unmapped. A 2.1 line with parameters, text that is
    /// not ASCII, a backslash (2.1's is a character; 3.0 and 4.0 read `\n` in `C:\new` as a line break) or a comma
    /// (a list separator in 3.0 and 4.0) is rewritten in the form 3.0 and 4.0 read (``KeptLine``), so that what is
    /// kept is valid in every version written. So is one with line breaks: an AGENT's embedded card
    /// (``CardScanner``), its lines then `\n`.
    func raw(_ line: ContentLine) throws(VCardIssue) -> String {
        if version == .v21,
            !line.parameters.isEmpty
                || line.raw.contains(where: {
                    $0 >= 0x80 || $0 == Byte.backslash || $0 == Byte.comma || $0 == Byte.lf
                })
        {
            return try KeptLine.from21(line, values: self)
        }
        if let text = line.raw.validatedUTF8 { return text }
        if let name = line.parameter("CHARSET"), let charset = Charset(name: name),
            let text = charset.decode(UnsafeBufferPointer(rebasing: line.raw))
        {
            return text
        }
        throw issue(line, "invalid UTF-8 in \(line.name)")
    }

    func issue(_ line: ContentLine, _ message: String) -> VCardIssue {
        VCardIssue(line: line.number, cardLine: cardLine, message: message)
    }

    private func parts(_ line: ContentLine, _ separator: UInt8, _ other: UInt8?) throws(VCardIssue) -> [String] {
        let charset = try charset(line)
        let parts = try transferDecoded(line) { bytes in
            Self.split(bytes, on: separator, or: other).map { decode($0, charset) ?? fallbackDecode($0, line) }
        }
        var result: [String] = []
        result.reserveCapacity(parts.count)
        for part in parts {
            guard let part else { throw invalidText(line) }
            result.append(part)
        }
        return result
    }

    private func charset(_ line: ContentLine) throws(VCardIssue) -> Charset {
        guard let name = line.parameter("CHARSET"), !textIsDecoded || line.encoding != nil else { return .utf8 }
        guard let charset = Charset(name: name) else {
            throw issue(line, "unsupported charset \"\(name.prefix(32))\" in \(line.name)")
        }
        return charset
    }

    /// A 2.1 value without CHARSET that is not UTF-8 was written in the Windows code page (what Outlook
    /// writes): Windows-1252 reads it. Other versions are UTF-8 only.
    private func fallbackDecode(_ bytes: Bytes, _ line: ContentLine) -> String? {
        guard version == .v21, line.parameter("CHARSET") == nil else { return nil }
        return decode(bytes, .windows1252)
    }

    /// The value with its transfer encoding undone and its charset decoded, escapes left as written.
    func decodedVerbatim(_ line: ContentLine) throws(VCardIssue) -> String {
        let charset = try charset(line)
        let text = try transferDecoded(line) { bytes -> String? in
            if let text = charset.decode(UnsafeBufferPointer(rebasing: bytes)) { return text }
            guard version == .v21, line.parameter("CHARSET") == nil else { return nil }
            return Charset.windows1252.decode(UnsafeBufferPointer(rebasing: bytes))
        }
        guard let text else { throw invalidText(line) }
        return text
    }

    /// Only UTF-8 can be invalid: the 8-bit charsets decode any byte.
    private func invalidText(_ line: ContentLine) -> VCardIssue {
        issue(line, "invalid UTF-8 in \(line.name)")
    }

    /// Runs `body` on the value after its transfer encoding is undone.
    private func transferDecoded<R>(_ line: ContentLine, _ body: (Bytes) -> R) throws(VCardIssue) -> R {
        switch line.encoding {
        case "QUOTED-PRINTABLE":
            guard let bytes = QuotedPrintable.decode(line.value) else {
                throw issue(line, "invalid quoted-printable in \(line.name)")
            }
            return bytes.withUnsafeBufferPointer { body($0[...]) }
        case "B", "BASE64":
            guard case .success(let data) = Base64.decode(line.value, maxBytes: Int.max) else {
                throw issue(line, "invalid base64 in \(line.name)")
            }
            return [UInt8](data).withUnsafeBufferPointer { body($0[...]) }
        default:
            return body(line.value)
        }
    }

    /// The bytes unescaped and decoded; `nil` when they are not valid in the charset.
    private func decode(_ bytes: Bytes, _ charset: Charset, uri: Bool = false) -> String? {
        guard bytes.contains(Byte.backslash) else { return charset.decode(UnsafeBufferPointer(rebasing: bytes)) }
        return unescape(bytes, uri: uri).withUnsafeBufferPointer { charset.decode($0) }
    }

    /// The bytes with the version's escapes resolved: `\n`, `\,`, `\;`, `\:` and `\\` in 3.0 and 4.0; only `\;`
    /// in 2.1, whose values otherwise hold backslashes literally. An unknown escape is kept as written. In a URI
    /// (``uri(_:)``) only `\,`, `\;`, `\:` and `\\` (which ``Escaping/uri(_:)`` writes for a backslash that
    /// would otherwise read as one of them).
    private func unescape(_ bytes: Bytes, uri: Bool = false) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == Byte.backslash, index + 1 < bytes.endIndex else {
                result.append(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == Byte.semicolon {
                result.append(next)
            } else if version == .v21 || (uri && next != Byte.comma && next != Byte.colon && next != Byte.backslash) {
                result.append(contentsOf: [byte, next])
            } else {
                switch next {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): result.append(Byte.lf)
                case Byte.comma, Byte.colon, Byte.backslash: result.append(next)
                default: result.append(contentsOf: [byte, next])
                }
            }
            index += 2
        }
        return result
    }

    /// Splits at separators not escaped by a backslash.
    static func split(_ bytes: Bytes, on separator: UInt8, or other: UInt8? = nil) -> [Bytes] {
        var parts: [Bytes] = []
        parts.reserveCapacity(8)
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == Byte.backslash {
                index += 2
                continue
            }
            if byte == separator || byte == other {
                parts.append(bytes[start..<index])
                start = index + 1
            }
            index += 1
        }
        parts.append(bytes[start..<max(start, bytes.endIndex)])
        return parts
    }
}
