/// Escaping for written values and parameters.
enum Escaping {
    /// A text value: backslash, comma and semicolon get a backslash; a line break becomes `\n`.
    static func text(_ value: String) -> String {
        guard
            value.utf8.contains(where: {
                $0 == Byte.backslash || $0 == Byte.comma || $0 == Byte.semicolon
                    || $0 == Byte.lf || $0 == Byte.cr
            })
        else { return value }
        return replacing(value, lineBreak: #"\n"#) { scalar, _ in
            switch scalar {
            case "\\": #"\\"#
            case ",": #"\,"#
            case ";": #"\;"#
            default: nil
            }
        }
    }

    /// `value` with each scalar `replacement` gives text for replaced by it, and each line break (CR, LF or CRLF)
    /// by `lineBreak`. By scalar, never by Character: a `;`, `,` or `"` before a combining mark is one Character
    /// with it, which a Character switch missed, so it went out bare: a value split on re-import, or a parameter's
    /// quote stayed open and the card was skipped (an outside tester's find).
    /// - Parameter replacement: a scalar and the one after it (`nil` at the end).
    static func replacing(
        _ value: String, lineBreak: String, _ replacement: (Unicode.Scalar, Unicode.Scalar?) -> String?
    ) -> String {
        var result = String.UnicodeScalarView()
        var scalars = value.unicodeScalars.makeIterator()
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            if scalar == "\r" || scalar == "\n" {
                result.append(contentsOf: lineBreak.unicodeScalars)
                if scalar == "\r", next == "\n" {
                    current = scalars.next()
                    continue
                }
            } else if let text = replacement(scalar, next) {
                result.append(contentsOf: text.unicodeScalars)
            } else {
                result.append(scalar)
            }
            current = next
        }
        return String(result)
    }

    /// A structured value (N, ADR, ORG): escaped components joined by `;`.
    static func components(_ values: [String]) -> String {
        values.map(text).joined(separator: ";")
    }

    /// A parameter value: RFC 6868's `^^`, `^n` and `^'` for the characters a parameter cannot hold, and quotes
    /// around a value with `;`, `:` or `,`, or with a space or tab at either end (readers trim a bare value: a
    /// username " jdoe " read back as "jdoe", a change on every re-import of an export).
    static func parameter(_ value: String) -> String {
        var result = value
        if value.utf8.contains(where: { $0 == Byte.caret || $0 == Byte.lf || $0 == Byte.cr || $0 == Byte.quote }) {
            result = replacing(value, lineBreak: "^n") { scalar, _ in
                switch scalar {
                case "^": "^^"
                case "\"": "^'"
                default: nil
                }
            }
        }
        let isBlank = { (byte: UInt8?) in byte == Byte.space || byte == Byte.tab }
        let padded = isBlank(result.utf8.first) || isBlank(result.utf8.last)
        if padded || result.utf8.contains(where: { $0 == Byte.semicolon || $0 == Byte.colon || $0 == Byte.comma }) {
            return "\"" + result + "\""
        }
        return result
    }

    /// A URI, written as it is (URIs take no text escapes, which many readers would keep) but for a backslash
    /// before `,`, `;`, `:` or another backslash: readers take those pairs for escapes (Apple writes `http\://`),
    /// so such a backslash is written `\\` and the value reads back as it was.
    static func uri(_ value: String) -> String {
        guard value.utf8.contains(Byte.backslash) else { return value }
        var result: [UInt8] = []
        result.reserveCapacity(value.utf8.count + 4)
        var bytes = value.utf8.makeIterator()
        var current = bytes.next()
        while let byte = current {
            let next = bytes.next()
            result.append(byte)
            if byte == Byte.backslash,
                let next, next == Byte.comma || next == Byte.semicolon || next == Byte.colon || next == Byte.backslash
            {
                result.append(Byte.backslash)
            }
            current = next
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A URI's user part (an IMPP username, Apple's `x-apple:` social username): percent-encodes only what would
    /// confuse a vCard reader or a URI parser (space, `%`, `,`, `;`, `\`, `"`, `<`, `>`, control characters).
    static func uriComponent(_ value: String) -> String {
        let special: Set<UInt8> = [0x20, 0x25, 0x2C, 0x3B, 0x5C, 0x22, 0x3C, 0x3E, 0x7F]
        guard value.utf8.contains(where: { $0 < 0x20 || special.contains($0) }) else { return value }
        var result = ""
        for scalar in value.unicodeScalars {
            if scalar.isASCII, scalar.value < 0x20 || special.contains(UInt8(scalar.value)) {
                result += "%" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
