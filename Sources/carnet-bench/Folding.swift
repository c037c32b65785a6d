import Foundation

/// The store's text normalizations, rewritten here so the hand-written SQL computes the same keys: folded names
/// (lowercase, no diacritics, "ł" → "l"), phone keys (the national significant number).
enum Folding {
    /// As the store folds: Latin letters one by one ("Ł" → "l"), but a text with a letter beyond Latin
    /// Extended-B (such as Vietnamese "ứ") is folded whole by Foundation, which keeps "đ", "ł" or "ø".
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                out += String(scalar).lowercased()
            } else if (0x300...0x36F).contains(scalar.value) {
                continue
            } else if (0xC0...0x24F).contains(scalar.value), scalar.value != 0xD7, scalar.value != 0xF7 {
                let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                out += folded.count == 1 ? (strokeless[Character(folded)] ?? folded) : folded
            } else {
                return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
        }
        return out
    }

    private static let strokeless: [Character: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ŀ": "l",
        "ŧ": "t", "ƀ": "b", "ð": "d",
    ]

    /// The words of a name query, as the store splits them.
    static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The FTS5 query for a name: each word a prefix, all required.
    static func match(_ text: String) -> String {
        words(text).map { "\"\($0)\"*" }.joined(separator: " AND ")
    }

    static func emailKey(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The national significant number: without the country code of an international number, the 1 of an
    /// 11-digit North American number, and a trunk 0.
    static func phoneKey(_ phone: String) -> String? {
        var digits: [UInt8] = []
        var international = false
        for scalar in phone.unicodeScalars {
            if scalar == "+" && digits.isEmpty {
                international = true
            } else if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                digits.append(UInt8(value))
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

    /// The store's sort key: folded names joined with U+0001, the organization for a contact without a name.
    static func sortKey(primary: String, secondary: String, middle: String, organization: String) -> String {
        let parts = [primary, secondary, middle].map(fold).filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
        let org = fold(organization)
        return org.isEmpty ? "\u{FFFD}" : org
    }
}
