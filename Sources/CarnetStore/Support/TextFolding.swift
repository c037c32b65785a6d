import Foundation

/// The normalizations behind searching and sorting: names compare case- and diacritic-insensitively,
/// emails case-insensitively, phone numbers by their digits.
enum TextFolding {
    /// Lowercased, without diacritics: `"José"` → `"jose"`.
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The words of a name query, folded, as the FTS tokenizer (unicode61) splits them: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The search key of an email address: trimmed and lowercased.
    static func emailKey(_ email: String) -> String? {
        let key = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return key.isEmpty ? nil : key
    }

    /// The search key of a phone number: its last ten digits, so `(555) 555-1234`, `+1 555 555 1234` and
    /// `5555551234` share one key, and so do `+44 20 7946 0958` and `020 7946 0958` (the trunk 0 falls off).
    static func phoneKey(_ phone: String) -> String? {
        var digits: [UInt8] = []
        for scalar in phone.unicodeScalars {
            if let value = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                digits.append(UInt8(ascii: "0") + UInt8(value))
            }
        }
        guard !digits.isEmpty else { return nil }
        return String(decoding: digits.suffix(10), as: UTF8.self)
    }

    /// The key contacts sort by. Parts are joined with U+0001 so "Smith Anna" sorts before "Smithson Al".
    /// A contact with no personal name sorts by organization name; one with neither sorts last.
    static func sortKey(primary: String, secondary: String, middle: String, organization: String) -> String {
        let parts = [primary, secondary, middle].map(fold).filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
        let org = fold(organization)
        return org.isEmpty ? "\u{FFFD}" : org
    }
}
