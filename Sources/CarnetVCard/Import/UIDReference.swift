/// How a reference (MEMBER, RELATED) names a card's UID: as `urn:uuid:<uid>`, where the card's UID may itself
/// be written with or without the `urn:uuid:` prefix (4.0 servers write it, Apple does not).
enum UIDReference {
    static let prefix = "urn:uuid:"

    /// The UID without its `urn:uuid:` prefix (any case), however many times it is written: a reference written
    /// `urn:uuid:urn:uuid:x` to a card of UID `urn:uuid:x` named it when found in the store (by the kept UID) but
    /// not in the file, so a strict import, which finds it in the file only, saved another relation than a
    /// lenient one (an outside vCard fuzzer's find).
    static func bare(_ uid: String) -> String {
        var rest = Substring(uid)
        while rest.utf8.count > prefix.utf8.count, rest.prefix(9).lowercased() == prefix { rest = rest.dropFirst(9) }
        return String(rest)
    }

    /// The forms a card's UID may be written in, for a bare reference: as is, and with the prefix.
    static func forms(_ bareUID: String) -> [String] { [bareUID, prefix + bareUID] }

    /// A reference's value: the UID with the prefix, written once.
    static func uri(_ uid: String) -> String { bare(uid) == uid ? prefix + uid : uid }
}
