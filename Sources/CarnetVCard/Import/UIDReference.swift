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

    /// The UID a reference names, as written: the reference without one `urn:uuid:` (any case). An export
    /// writes every reference with the prefix, also to a UID that has it (`urn:uuid:urn:uuid:x`), so that `x` and
    /// `urn:uuid:x` stay two cards.
    static func named(_ reference: String) -> String {
        let utf8 = reference.utf8
        guard utf8.count > 9, utf8.prefix(9).equalsIgnoringCase("URN:UUID:".utf8) else { return reference }
        // After an ASCII prefix: a scalar boundary.
        return String(reference[utf8.index(utf8.startIndex, offsetBy: 9)...])
    }

    /// What a reference is matched by: the bare UID, and a UUID in one case. RFC 9562 compares UUIDs without
    /// regard to case, and writers differ: a MEMBER in lower case named an upper-case UID (Carnet's own) of the
    /// same file and was reported as naming no card (an outside vCard fuzzer's find). Other UIDs are compared as
    /// written, byte for byte.
    static func key(_ uid: String) -> ExactText {
        let bare = bare(uid)
        return ExactText(bare.utf8.count == 36 ? UUID(uuidString: bare)?.uuidString ?? bare : bare)
    }

    /// The forms a stored contact's UID may be written in, for a reference's UID (``named(_:)``), in the order
    /// they are tried: as named, and with the prefix; a UUID also in upper and lower case; then the same of the
    /// bare UID, as ``UIDIndex`` tries a file's cards.
    static func forms(_ uid: String) -> [String] {
        var spellings: [String] = []
        for base in bare(uid) == uid ? [uid] : [uid, bare(uid)] {
            var cased = [base]
            if UUID(uuidString: base) != nil {
                for spelling in [base.uppercased(), base.lowercased()] where !cased.contains(spelling) {
                    cased.append(spelling)
                }
            }
            spellings += cased + cased.map { prefix + $0 }
        }
        return spellings
    }

    /// A reference's value (MEMBER): a UID that is a URI as it is, which other clients match as written
    /// (`urn:uuid:x`, as 4.0 servers write UIDs, or another scheme's); another UID after `urn:uuid:`. A `urn:uuid:x`
    /// that another card's UID shares `x` with (`isTaken` of ``alternatives(_:)``) gets the prefix again
    /// (`urn:uuid:urn:uuid:x`), which the importer matches exactly (``UIDIndex``), so the two stay two cards.
    /// Before, every URI UID got the prefix again, and other clients matched no card (an outside tester's find).
    static func uri(_ uid: String, isTaken: (String) -> Bool) -> String {
        guard CardDecoder.looksLikeURI(uid) else { return prefix + uid }
        return alternatives(uid).contains(where: isTaken) ? prefix + uid : uid
    }

    /// The other UIDs a reference written as `uid` could match (``uri(_:isTaken:)``): its bare UID's forms, and for
    /// a UID of more than one prefix every form (it is then always written with one more).
    static func alternatives(_ uid: String) -> [String] {
        let bare = bare(uid)
        guard bare != uid else { return [] }
        guard named(uid) == bare else { return [uid] }
        return forms(bare).filter { $0 != uid }
    }
}
