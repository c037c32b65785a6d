/// Runs of combining marks in client text. Swift normalizes a `String` to hash or compare it, and normalizing
/// sorts each run of combining marks (non-starters) in time quadratic in its length: a JSON key of 160,000 marks
/// took 6 s to hash, and one of 1 MiB would take a minute, in every dictionary, set or comparison it reaches.
/// Unicode's stream-safe text format (UAX #15) bounds runs at 30 and real text stays far under; runs of at most
/// ``maxRun`` keep hashing a 1 MiB string near 0.05 s. Text past it is refused where it enters (JSON strings and
/// a GET's parameters), before anything hashes it, and the store holds none (``Validation``): a vCard's
/// quoted-printable decodes to marks no JSON parser saw, and a merge of such a contact held its book for 20 s
/// (an outside tester's find).
public enum CombiningMarks {
    /// The longest run of non-starters (canonical combining class other than 0) a string may hold.
    public static let maxRun = 255

    /// Whether `text` holds a run of more than ``maxRun`` non-starters.
    public static func exceedsRun(_ text: String) -> Bool {
        var run = 0
        for scalar in text.unicodeScalars {
            guard isNonStarter(scalar) else {
                run = 0
                continue
            }
            run += 1
            if run > maxRun { return true }
        }
        return false
    }

    /// `text` with each run of non-starters cut after its first ``maxRun``: for a vCard line kept aside, which
    /// the store would refuse whole (and with it the card) for one such run.
    public static func trimmingRuns(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var run = 0
        for scalar in text.unicodeScalars {
            if isNonStarter(scalar) {
                run += 1
                if run > maxRun { continue }
            } else {
                run = 0
            }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// A scalar of a nonzero canonical combining class. Nothing below U+0300 (combining grave accent) combines:
    /// ASCII and Latin-1 cost one comparison.
    private static func isNonStarter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x300 && scalar.properties.canonicalCombiningClass != .notReordered
    }
}
