import Foundation

/// The normalizations behind searching and sorting: names compare case- and diacritic-insensitively,
/// emails case-insensitively, phone numbers by their digits.
///
/// `package` so the benchmark's hand-written SQL computes exactly the store's keys.
package enum TextFolding {
    /// Lowercased, without diacritics: `"José"` → `"jose"`.
    ///
    /// Latin letters (the common case in names) go through a table made once from Foundation's folding;
    /// other scripts fall back to Foundation, which is correct but slower.
    package static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                let value = UInt8(scalar.value)
                scalars.append(Unicode.Scalar((0x41...0x5A).contains(value) ? value + 0x20 : value))
            } else if (0x300...0x36F).contains(scalar.value) {
                continue  // a combining diacritic
            } else if let folded = latinFolding[scalar.value] {
                scalars.append(contentsOf: folded.unicodeScalars)
            } else {
                return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
        }
        return String(scalars)
    }

    /// Latin-1 Supplement, Latin Extended-A and -B letters, folded by Foundation once, plus the letters people
    /// type without their stroke or ligature (Foundation keeps "ł", "ø", "æ"): "lukasz" should find "Łukasz".
    private static let latinFolding: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for value in UInt32(0xC0)...0x24F {
            guard let scalar = Unicode.Scalar(value), value != 0xD7, value != 0xF7 else { continue }
            var folded = String(Character(scalar)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            folded = strokeless[folded] ?? folded
            table[value] = folded
        }
        return table
    }()

    private static let strokeless: [String: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ŀ": "l",
        "ŧ": "t", "ƀ": "b", "ð": "d",
    ]

    /// The words of a name query, folded, as the FTS tokenizer (unicode61) splits them: runs of letters and digits.
    package static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The search key of an email address: trimmed and lowercased.
    package static func emailKey(_ email: String) -> String? {
        var utf8 = Substring(email).utf8
        while let first = utf8.first, first == 0x20 || (0x09...0x0D).contains(first) { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || (0x09...0x0D).contains(last) { utf8 = utf8.dropLast() }
        let key = Substring(utf8).lowercased()
        return key.isEmpty ? nil : key
    }

    /// The search key of a phone number: its national significant number, so a number typed in international
    /// form matches the same number typed in national form.
    ///
    /// International numbers (`+` or `00`) lose their country code; an 11-digit number starting with 1 (North
    /// America) loses the 1; then a leading trunk 0 goes. `(555) 555-1234`, `+1 555 555 1234` and `5555551234`
    /// share a key, as do `+44 20 7946 0958` and `020 7946 0958`, or `+33 1 85 88 22 89` and `01 85 88 22 89`.
    package static func phoneKey(_ phone: String) -> String? {
        var digits: [UInt8] = []
        var international = false
        for scalar in phone.unicodeScalars {
            if scalar == "+" && digits.isEmpty {
                international = true
            } else if scalar.isASCII {
                if (0x30...0x39).contains(scalar.value) { digits.append(UInt8(scalar.value - 0x30)) }
            } else if let value = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                digits.append(UInt8(value))  // other scripts' digits: Arabic-Indic, Devanagari, fullwidth, ...
            }
        }
        if !international, digits.count > 2, digits[0] == 0, digits[1] == 0 {
            international = true
            digits.removeFirst(2)
        }
        if international {
            digits.removeFirst(min(digits.count, countryCodeLength(digits)))
        } else if digits.count == 11, digits[0] == 1 {
            digits.removeFirst()
        }
        if digits.first == 0 { digits.removeFirst() }
        guard !digits.isEmpty else { return nil }
        return String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }

    /// ITU-T E.164 country codes: 1 and 7 are one digit, these two, every other three.
    private static let twoDigitCountryCodes: Set<Int> = [
        20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61,
        62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
    ]

    private static func countryCodeLength(_ digits: [UInt8]) -> Int {
        guard let first = digits.first else { return 0 }
        if first == 1 || first == 7 { return 1 }
        if digits.count >= 2, twoDigitCountryCodes.contains(Int(first) * 10 + Int(digits[1])) { return 2 }
        return 3
    }

    /// The key contacts sort by. Parts are joined with U+0001 so "Smith Anna" sorts before "Smithson Al".
    /// A contact with no personal name sorts by organization name; one with neither sorts last.
    package static func sortKey(primary: String, secondary: String, middle: String, organization: String) -> String {
        let parts = [primary, secondary, middle].map(fold).filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
        let org = fold(organization)
        return org.isEmpty ? "\u{FFFD}" : org
    }
}
