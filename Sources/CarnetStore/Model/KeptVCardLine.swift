/// The rule for a contact's `vCardProperties`: the content lines of a card that no key holds, kept as the importer
/// read them and written back by the export. One source for the store, which refuses what the export could not
/// write back, and for the export, which leaves out lines stored before that rule.
///
/// Read by bytes and scalars, as the vCard reader reads a line, never by `Character`: a `;`, `:` or `"` before a
/// combining mark is one `Character` with it, so a check by `Character` took `END :VCARD` or `X-A;P="x:y` for
/// harmless lines that then ended or broke the card on re-import (an outside tester's find).
public enum KeptVCardLine {
    /// The property name of `line` as the vCard reader takes it: up to its first `:` or `;`, after a group's
    /// `.`, without white space at its ends or control characters, upper-cased.
    public static func name(of line: some StringProtocol) -> String {
        var bytes = line.utf8.prefix { $0 != colon && $0 != semicolon }[...]
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) { bytes = bytes[bytes.index(after: dot)...] }
        let kept = bytes.filter { $0 >= 0x20 && $0 != 0x7F }
        return String(decoding: trimmed(kept[...]).map(uppercased), as: UTF8.self)
    }

    /// Whether `line` frames a card (BEGIN, END, VERSION): the export writes its own.
    public static func framesCard(_ line: some StringProtocol) -> Bool {
        ["BEGIN", "END", "VERSION"].contains(name(of: line))
    }

    /// Whether the vCard reader reads `line` as one property: a name, parameters whose quotes close, then a `:`
    /// outside quotes; no leading space or tab, which would fold it onto the line before; no `=` at the end of a
    /// line whose head says QUOTED-PRINTABLE, which joins the next line to it (a soft line break); and no AGENT
    /// whose whole value is `BEGIN:VCARD`, which takes the card's lines down to an END:VCARD as its own (an AGENT
    /// kept with its card inside, `AGENT:BEGIN:VCARD\nVERSION:2.1\n…`, reads back).
    public static func isWellFormed(_ line: some StringProtocol) -> Bool {
        let bytes = Array(line.utf8)
        let name = name(of: line)
        guard let first = bytes.first, first != space, first != tab, !name.isEmpty,
            let end = bytes.firstIndex(where: { $0 == colon || $0 == semicolon })
        else { return false }
        if let colon = bytes.firstIndex(of: colon) {
            let head = bytes[..<colon].map(uppercased)
            let quotedPrintable = Array("QUOTED-PRINTABLE".utf8)
            if bytes.last == UInt8(ascii: "="),
                head.indices.contains(where: { head[$0...].starts(with: quotedPrintable) })
            {
                return false
            }
            // As the reader's scanner: the value, without white space at its ends, is BEGIN:VCARD.
            if name == "AGENT", trimmed(bytes[(colon + 1)...]).map(uppercased).elementsEqual("BEGIN:VCARD".utf8) {
                return false
            }
        }
        var inQuotes = false
        for byte in bytes[end...] {
            if byte == quote {
                inQuotes.toggle()
            } else if byte == colon, !inQuotes {
                return true
            }
        }
        return false
    }

    /// Whether `line` is a `UID:` line in any case: the reader maps a card's first UID, so an import keeps none
    /// but its own and the export writes none but the one it picks (``uid(in:)``).
    public static func isUID(_ line: some StringProtocol) -> Bool {
        line.utf8.prefix(4).map(uppercased).elementsEqual("UID:".utf8)
    }

    /// The UID of a kept `UID:` line as imports keep it (the name in capitals), nil for other lines; by scalars,
    /// so a UID that starts with a combining mark keeps it.
    public static func uid(in line: String) -> String? {
        line.utf8.starts(with: "UID:".utf8) ? String(line.unicodeScalars.dropFirst(4)) : nil
    }

    /// The key a kept `UID:` line is looked up by on re-import (nil for other lines): the line itself, or for a
    /// UID over ``StoreLimits/indexedUIDBytes`` its first bytes and a `…`, so that an index holds it. A lookup by
    /// key compares the whole line: long UIDs that share their first bytes share a key, not a contact. A longer
    /// UID was once not indexed at all, and every import of its card added a contact (an outside tester's find).
    public static func uidSearchKey(_ line: String) -> String? {
        guard line.utf8.starts(with: "UID:".utf8) else { return nil }
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

    /// What a lookup of kept UIDs reads and checks, byte for byte: the whole `UID:` lines, and their search keys
    /// once each (a `Set<String>` would keep one of two canonically equivalent keys, and the other UID's rows would
    /// not be read).
    public static func uidLookup(_ uids: some Sequence<String>) -> (lines: Set<[UInt8]>, keys: [String]) {
        var lines: Set<[UInt8]> = []
        var keys: [String] = []
        var seenKeys: Set<[UInt8]> = []
        for uid in uids {
            let line = "UID:" + uid
            guard lines.insert(Array(line.utf8)).inserted, let key = uidSearchKey(line) else { continue }
            if seenKeys.insert(Array(key.utf8)).inserted { keys.append(key) }
        }
        return (lines, keys)
    }

    /// The UID of `line`, a stored line found by its search key, when it is one of `lines` (``uidLookup(_:)``): a
    /// long UID's key is its first bytes, so the whole line decides, byte for byte.
    public static func uid(of line: String, among lines: Set<[UInt8]>) -> String? {
        lines.contains(Array(line.utf8)) ? uid(in: line) : nil
    }

    /// An ASCII letter in capitals, as the reader compares names: `VERſION` is no VERSION to it.
    private static func uppercased(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// Without spaces and tabs at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == space || first == tab { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == space || last == tab { bytes = bytes.dropLast() }
        return bytes
    }

    private static let (colon, semicolon, quote) = (UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "\""))
    private static let (space, tab) = (UInt8(ascii: " "), UInt8(ascii: "\t"))
}
