/// The rule for a contact's `vCardProperties`: the content lines of a card that no key holds, kept as the importer
/// read them and written back by the export. One source for the store, which refuses what the export could not
/// write back, and for the export, which leaves out lines stored before that rule.
public enum KeptVCardLine {
    /// The property name of `line`: up to its first `:` or `;`, upper-cased.
    public static func name(of line: some StringProtocol) -> String {
        line.prefix { $0 != ":" && $0 != ";" }.uppercased()
    }

    /// Whether `line` frames a card (BEGIN, END, VERSION): the export writes its own.
    public static func framesCard(_ line: some StringProtocol) -> Bool {
        ["BEGIN", "END", "VERSION"].contains(name(of: line))
    }

    /// The key a kept `UID:` line is looked up by on re-import (nil for other lines): the line itself, or for a
    /// UID over ``StoreLimits/indexedUIDBytes`` its first bytes and a `…`, so that an index holds it. A lookup by
    /// key compares the whole line: long UIDs that share their first bytes share a key, not a contact. A longer
    /// UID was once not indexed at all, and every import of its card added a contact (an outside tester's find).
    public static func uidSearchKey(_ line: String) -> String? {
        guard line.hasPrefix("UID:") else { return nil }
        let limit = StoreLimits.indexedUIDBytes + 4
        guard line.utf8.count > limit else { return line }
        var key = ""
        var bytes = 0
        for scalar in line.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= limit else { break }
            key.unicodeScalars.append(scalar)
        }
        return key + "…"
    }
}
