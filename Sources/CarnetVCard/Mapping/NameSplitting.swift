/// Splits a formatted name (a card's FN when it has no N) into name parts the way Apple Contacts does when a
/// name is typed into one field: known prefixes and suffixes come off the ends, the first word left is the
/// given name, the last the family name (with the particles before it: `van`, `de la`...), and the words
/// between are the middle name. `Family, Given` is read in that order. A single word is a given name.
enum NameSplitting {
    struct Parts: Equatable {
        var prefix = ""
        var given = ""
        var middle = ""
        var family = ""
        var suffix = ""
    }

    static func split(_ name: String) -> Parts {
        var parts = Parts()
        var text = name
        // "Smith, John" and "Smith, John Jr." put the family name first; "John Smith, Jr." does not.
        var suffixes: [Substring] = []
        if let comma = text.firstIndex(of: ",") {
            let after = text[text.index(after: comma)...].split(separator: " ")
            if !after.isEmpty, after.allSatisfy(isSuffix) {
                suffixes = after
                text = String(text[..<comma])
            } else {
                let family = TextCleaning.trimmed(String(text[..<comma]))
                var rest = after[...]
                suffixes = Array(trimSuffixes(&rest))
                parts.prefix = trimPrefixes(&rest).joined(separator: " ")
                parts.family = String(family)
                parts.given = rest.first.map(String.init) ?? ""
                parts.middle = rest.dropFirst().joined(separator: " ")
                parts.suffix = suffixes.joined(separator: " ")
                return parts
            }
        }
        var trimmed = text.split(separator: " ")[...]
        suffixes = Array(trimSuffixes(&trimmed)) + suffixes
        parts.prefix = trimPrefixes(&trimmed).joined(separator: " ")
        parts.suffix = suffixes.joined(separator: " ")
        let words = Array(trimmed)
        guard let first = words.first else { return parts }
        parts.given = String(first)
        guard words.count > 1 else { return parts }
        // The family name is the last word and the lowercase particles just before it.
        var familyStart = words.count - 1
        while familyStart > 1, particles.contains(words[familyStart - 1].lowercased()) { familyStart -= 1 }
        parts.family = words[familyStart...].joined(separator: " ")
        parts.middle = words[1..<familyStart].joined(separator: " ")
        return parts
    }

    /// The known suffixes at the end of `words`, in order, taken off it; one word always stays. (A slice: taking
    /// words off an array's front one at a time shifted the rest each time, and a hostile FN has 10 MiB of them.)
    private static func trimSuffixes(_ words: inout ArraySlice<Substring>) -> ArraySlice<Substring> {
        var start = words.endIndex
        while start - 1 > words.startIndex, isSuffix(words[start - 1]) { start -= 1 }
        defer { words = words[..<start] }
        return words[start...]
    }

    /// The known prefixes at the start of `words`, taken off it; one word always stays.
    private static func trimPrefixes(_ words: inout ArraySlice<Substring>) -> ArraySlice<Substring> {
        var end = words.startIndex
        while end + 1 < words.endIndex, isPrefix(words[end]) { end += 1 }
        defer { words = words[end...] }
        return words[..<end]
    }

    private static func isPrefix(_ word: Substring) -> Bool { prefixes.contains(normalized(word)) }
    private static func isSuffix(_ word: Substring) -> Bool { suffixes.contains(normalized(word)) }

    /// Lowercased, without the dots and commas that may follow an abbreviation.
    private static func normalized(_ word: Substring) -> String {
        String(word.lowercased().filter { $0 != "." && $0 != "," })
    }

    private static let prefixes: Set<String> = [
        "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lady", "lord", "rev", "fr", "sr", "sra",
        "srta", "herr", "frau", "mme", "mlle", "capt", "col", "gen", "lt", "sgt", "hon",
    ]

    private static let suffixes: Set<String> = [
        "jr", "sr", "ii", "iii", "iv", "phd", "md", "dds", "esq", "mba", "cpa", "rn", "jd", "obe", "mbe",
        "cbe", "kbe", "qc", "kc",
    ]

    private static let particles: Set<String> = [
        "van", "von", "de", "da", "di", "del", "della", "der", "den", "la", "le", "du", "dos", "das", "do", "ten",
        "ter", "bin", "al", "el", "zu", "af", "av",
    ]
}
