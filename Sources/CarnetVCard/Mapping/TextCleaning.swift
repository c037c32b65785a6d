import CarnetStore

/// Makes decoded text fit the store's validation: single-line fields refuse control characters. A value is kept as
/// written, but one of white space alone is empty, and one whose control characters had to go is trimmed.
enum TextCleaning {
    /// Trimmed, with tabs and line breaks turned into spaces (an escaped `\n` in an ORG, say) and other control
    /// characters removed, as `importVCards` documents: `Ab<NUL>cd` is "Abcd", not "Ab cd".
    static func singleLine(_ text: String) -> String {
        guard !Validation.text(text, limit: .max) else { return asWritten(text) }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            guard !Validation.allows(scalar, multiline: false) else {
                result.append(scalar)
                continue
            }
            // A CRLF pair becomes one space, not two.
            if scalar == "\n", previous == "\r" { continue }
            if separators.contains(scalar) { result.append(" ") }
        }
        return trimmed(String(result))
    }

    /// The control characters that separate words (a tab, the line breaks): a space in a one-line value.
    private static let separators: Set<Unicode.Scalar> = [
        "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
    ]

    /// Trimmed, with line ends made LF and control characters other than tab and LF removed (note, street).
    static func multiLine(_ text: String) -> String {
        guard !Validation.text(text, limit: .max, multiline: true) || text.utf8.contains(0x0D) else {
            return asWritten(text)
        }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\r" {
                result.append("\n")
            } else if scalar == "\n", previous == "\r" {
                continue
            } else if Validation.allows(scalar, multiline: true) {
                result.append(scalar)
            }
        }
        return trimmed(String(result))
    }

    /// The text as the card wrote it, white space around it included (a contact saved with it exports it, and
    /// its re-import must not change the contact), or empty when it is nothing but white space.
    static func asWritten(_ text: String) -> String {
        Validation.isNotBlank(text) ? text : ""
    }

    /// Without leading and trailing white space (Unicode's, so a no-break space goes too).
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return text
        }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }

    /// The text without control characters but tab, or nil when it has none: a kept line is kept as written but
    /// for those. The store holds no other in any value, and a line break (a lone CR inside a CRLF file's line)
    /// is one no export can write back within the line.
    static func withoutControlCharacters(_ text: String) -> String? {
        if Validation.text(text, limit: .max) { return nil }
        func isRefused(_ scalar: Unicode.Scalar) -> Bool {
            scalar != "\t" && !Validation.allows(scalar, multiline: false)
        }
        guard text.unicodeScalars.contains(where: isRefused) else { return nil }
        var cleaned = String.UnicodeScalarView()
        cleaned.append(contentsOf: text.unicodeScalars.lazy.filter { !isRefused($0) })
        return String(cleaned)
    }
}
