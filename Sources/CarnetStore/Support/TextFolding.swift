import Foundation

/// The normalizations behind searching and sorting: names compare case- and diacritic-insensitively,
/// emails case-insensitively, phone numbers by their digits.
///
/// `package` so the benchmark's hand-written SQL computes exactly the store's keys.
package enum TextFolding {
    /// Lowercased, without diacritics: `"José"` → `"jose"`, `"Đức Nguyễn"` → `"duc nguyen"`.
    ///
    /// Foundation's folding (case- and diacritic-insensitive), then the letters people type without their stroke
    /// or ligature, which Foundation keeps, replaced: `"Łukasz Søren Æbelø"` → `"lukasz soren aebelo"`.
    /// Latin letters (the common case in names: Latin-1, Latin Extended-A and -B, and Latin Extended Additional,
    /// where Vietnamese lives) go through a table of exactly that folding, made once; runs of other scalars
    /// (other scripts, rare letters) go through Foundation run by run, so a combining sequence folds as one, and
    /// one Greek letter in a name does not change how the rest of the name folds.
    ///
    /// Canonically equivalent spellings fold alike: the text is composed (NFC) first, so a name typed decomposed
    /// ("한국" as conjoining jamo, as macOS file names and some keyboards give it) finds and sorts with the same name
    /// typed precomposed. Stores compare stored text by its bytes, so folding is the one place that equates them.
    ///
    /// Every stored search and sort key is made by this function (``words(_:)``, ``sortKey(primary:secondary:middle:organization:)``,
    /// `ContactIndexing`, group sort names): a change to its output needs a migration that recomputes them, as v4
    /// and v14 do on SQLite and books-v7 on PostgreSQL.
    package static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return foldWithoutComposing(mayNeedComposing(text) ? composed(text) : text)
    }

    /// NFC, through NFD: Foundation's composition alone leaves a precomposed Hangul syllable and a trailing jamo
    /// ("가" and "ᆨ") apart, where NFC makes them one ("각").
    static func composed(_ text: String) -> String {
        text.decomposedStringWithCanonicalMapping.precomposedStringWithCanonicalMapping
    }

    /// Whether `text` may not be in NFC: it has a scalar outside the ranges where every scalar is NFC on its own,
    /// has no combining class and composes with nothing before it (below U+0300; Greek but for three singletons;
    /// Cyrillic letters; Latin Extended Additional; kana but for the two voicing marks; Hangul syllables; CJK
    /// ideographs). A decomposed scalar or a combining one is never in them, so text passing this is composed, and
    /// the names of most scripts skip Foundation's two normalizations.
    static func mayNeedComposing(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0..<0x300, 0x370...0x373, 0x375...0x37D, 0x37F...0x386, 0x388...0x3FF, 0x400...0x482,
                0x48A...0x52F, 0x1E00...0x1EFF, 0x3040...0x3098, 0x309B...0x30FF, 0xAC00...0xD7A3, 0x4E00...0x9FFF:
                false
            default: true
            }
        }
    }

    /// The folding without composing: the folding up to v13 (SQLite) and books-v6 (PostgreSQL), which migrations
    /// compare against (``ContactIndexing/isFoldedDifferently(_:)``).
    package static func foldWithoutComposing(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var folded: [Unicode.Scalar] = []
        folded.reserveCapacity(text.utf8.count)
        // Scalars the table does not know, waiting to be folded together by Foundation.
        var run = String.UnicodeScalarView()
        // The last scalar folded on its own (ASCII or table) and where its output starts: a combining mark the table
        // does not know joins it in a run, so the pair folds as Foundation folds it.
        var base: (scalar: Unicode.Scalar, start: Int)?
        func flushRun() {
            guard !run.isEmpty else { return }
            appendFoldedByFoundation(String(run), to: &folded)
            run = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                flushRun()
                base = (scalar, folded.count)
                let byte = UInt8(value)
                folded.append(Unicode.Scalar((0x41...0x5A).contains(byte) ? byte + 0x20 : byte))
            } else if run.isEmpty && (0x300...0x36F).contains(value) {
                continue  // a combining diacritic on a letter folded alone
            } else if let letter = tableFolding(value) {
                flushRun()
                base = (scalar, folded.count)
                folded.append(contentsOf: letter)
            } else {
                if run.isEmpty, let letter = base, isMark(scalar) {
                    folded.removeSubrange(letter.start...)
                    run.append(letter.scalar)
                }
                base = nil
                run.append(scalar)
            }
        }
        flushRun()
        var result = String.UnicodeScalarView()
        result.append(contentsOf: folded)
        return String(result)
    }

    /// The folding of text without a table: Foundation's, then ``strokeless`` scalar by scalar.
    private static func appendFoldedByFoundation(_ text: String, to folded: inout [Unicode.Scalar]) {
        for scalar in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars {
            if let plain = strokeless[scalar] { folded.append(contentsOf: plain) } else { folded.append(scalar) }
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The table's folding of a scalar, `nil` outside it.
    @inline(__always)
    private static func tableFolding(_ value: UInt32) -> [Unicode.Scalar]? {
        switch value {
        case 0xC0...0x24F: latinFolding[Int(value - 0xC0)]
        case 0x1E00...0x1EFF: latinAdditionalFolding[Int(value - 0x1E00)]
        default: nil
        }
    }

    /// Latin-1 Supplement, Latin Extended-A and -B (U+00C0–U+024F), each letter folded without a table once.
    private static let latinFolding = makeTable(0xC0...0x24F)
    /// Latin Extended Additional (U+1E00–U+1EFF): Vietnamese ("ễ", "ặ", "ứ") and other precomposed letters.
    private static let latinAdditionalFolding = makeTable(0x1E00...0x1EFF)

    private static func makeTable(_ range: ClosedRange<UInt32>) -> [[Unicode.Scalar]?] {
        range.map { value in
            // Letters only: "×" and "÷" are Latin-1 too, and fold (unchanged) like any other symbol.
            guard let scalar = Unicode.Scalar(value), value != 0xD7, value != 0xF7 else { return nil }
            var folded: [Unicode.Scalar] = []
            appendFoldedByFoundation(String(scalar), to: &folded)
            return folded
        }
    }

    /// Letters Foundation's folding keeps, as people type them: "lukasz" should find "Łukasz", "duc" "Đức".
    private static let strokeless: [Unicode.Scalar: [Unicode.Scalar]] = {
        let letters: [Unicode.Scalar: String] = [
            "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ŀ": "l",
            "ŧ": "t", "ƀ": "b", "ð": "d",
        ]
        return letters.mapValues { Array($0.unicodeScalars) }
    }()

    /// The words of a name query, folded: runs of letters and digits (``splitWords(_:)``).
    package static func words(_ text: String) -> [String] {
        splitWords(fold(text))
    }

    /// The words of text already folded (a contact's ``ContactIndexing/names(_:)``), not folded again: the name
    /// indexes hold these, and a query's ``words(_:)`` fold once too, so a name finds itself whatever folding
    /// folded text gives. (Foundation strips one mark of a run after a Hangul letter per pass: the indexes held
    /// text folded twice, and a name with two such marks did not find itself.)
    package static func splitWords(_ folded: String) -> [String] {
        folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The words of a name query that each say something: once each, and none that prefixes another word of the
    /// query (a name with a word that starts with "ann" has one that starts with "a"). Each word is a read of the
    /// name index, and "a a a … a" was hundreds of reads for one.
    package static func queryWords(_ text: String) -> [String] {
        let all = words(text)
        var kept: [String] = []
        for word in all where !kept.contains(word) && !all.contains(where: { $0 != word && $0.hasPrefix(word) }) {
            kept.append(word)
        }
        return kept
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
        // ASCII digits, trimmed from the front by moving `start`: two allocations at most, as synthesis and every
        // save compute this for each number.
        var digits: [UInt8] = []
        digits.reserveCapacity(phone.utf8.count)
        var international = false
        for scalar in phone.unicodeScalars {
            if scalar == "+" && digits.isEmpty {
                international = true
            } else if scalar.isASCII {
                if (0x30...0x39).contains(scalar.value) { digits.append(UInt8(scalar.value)) }
            } else if let value = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                digits.append(UInt8(value) + 0x30)  // other scripts' digits: Arabic-Indic, Devanagari, fullwidth, ...
            }
        }
        var start = 0
        if !international, digits.count > 2, digits[0] == 0x30, digits[1] == 0x30 {
            international = true
            start = 2
        }
        if international {
            start += min(digits.count - start, countryCodeLength(digits[start...]))
        } else if digits.count == 11, digits[0] == 0x31 {
            start = 1
        }
        if start < digits.count, digits[start] == 0x30 { start += 1 }
        guard start < digits.count else { return nil }
        return String(decoding: digits[start...], as: UTF8.self)
    }

    /// ITU-T E.164 country codes: 1 and 7 are one digit, these two, every other three.
    private static let twoDigitCountryCodes: Set<Int> = [
        20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61,
        62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
    ]

    /// - Parameter digits: ASCII digits.
    private static func countryCodeLength(_ digits: ArraySlice<UInt8>) -> Int {
        guard let first = digits.first.map({ $0 - 0x30 }) else { return 0 }
        if first == 1 || first == 7 { return 1 }
        let second = digits.dropFirst().first.map { Int($0) - 0x30 }
        if let second, twoDigitCountryCodes.contains(Int(first) * 10 + second) { return 2 }
        return 3
    }

    /// The key contacts sort by. Parts are joined with U+0001 so "Smith Anna" sorts before "Smithson Al".
    /// A contact with no personal name sorts by organization name; one with neither sorts last.
    package static func sortKey(primary: String, secondary: String, middle: String, organization: String) -> String {
        let parts = [primary, secondary, middle].map(fold).filter { !$0.isEmpty }
        if !parts.isEmpty { return prefix(parts.joined(separator: "\u{1}"), bytes: StoreLimits.sortKeyBytes) }
        let org = fold(organization)
        return org.isEmpty ? "\u{FFFD}" : prefix(org, bytes: StoreLimits.sortKeyBytes)
    }

    /// The longest prefix of `text` within `bytes` UTF-8 bytes, cut between scalars.
    package static func prefix(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            count += UTF8.width(scalar)
            guard count <= bytes else { break }
            kept.append(scalar)
        }
        return String(kept)
    }
}
