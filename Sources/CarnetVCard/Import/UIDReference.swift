import Foundation

/// How a reference (MEMBER, RELATED) names a card's UID: as `urn:uuid:<uid>`, where the card's UID may itself
/// be written with or without the `urn:uuid:` prefix (4.0 servers write it, Apple does not).
enum UIDReference {
    static let prefix = "urn:uuid:"

    /// The UID without its `urn:uuid:` prefix (any case), however many times it is written: a reference written
    /// `urn:uuid:urn:uuid:x` to a card of UID `urn:uuid:x` named it when found in the store (by the kept UID) but
    /// not in the file, so a strict import, which finds it in the file only, saved another relation than a
    /// lenient one (an outside vCard fuzzer's find). The prefix is matched and skipped by bytes, and the rest
    /// copied once: by `Character`, a combining mark after its colon made it no prefix, and a copy per prefix made
    /// a value of a million prefixes quadratic.
    static func bare(_ uid: String) -> String {
        let utf8 = uid.utf8
        var start = utf8.startIndex
        while utf8.distance(from: start, to: utf8.endIndex) > 9,
            utf8[start...].prefix(9).equalsIgnoringCase("URN:UUID:".utf8)
        {
            start = utf8.index(start, offsetBy: 9)
        }
        // After ASCII prefixes only: a scalar boundary.
        return start == utf8.startIndex ? uid : String(uid[start...])
    }

    /// What a reference is matched by: the bare UID, and a UUID in one case. RFC 9562 compares UUIDs without
    /// regard to case, and writers differ: a MEMBER in lower case named an upper-case UID (Carnet's own) of the
    /// same file and was reported as naming no card (an outside vCard fuzzer's find). Other UIDs are compared as
    /// written, byte for byte.
    static func key(_ uid: String) -> ExactText {
        let bare = bare(uid)
        return ExactText(bare.utf8.count == 36 ? UUID(uuidString: bare)?.uuidString ?? bare : bare)
    }

    /// The forms a card's UID may be written in, for a bare reference: as is, and with the prefix; a UUID also
    /// in upper and lower case.
    static func forms(_ bareUID: String) -> [String] {
        var spellings = [bareUID]
        if UUID(uuidString: bareUID) != nil {
            for spelling in [bareUID.uppercased(), bareUID.lowercased()] where !spellings.contains(spelling) {
                spellings.append(spelling)
            }
        }
        return spellings + spellings.map { prefix + $0 }
    }

    /// A reference's value: the UID with the prefix, written once.
    static func uri(_ uid: String) -> String { bare(uid) == uid ? prefix + uid : uid }
}
