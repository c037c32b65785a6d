/// How a reference (MEMBER, RELATED) names a card's UID: as `urn:uuid:<uid>`, where the card's UID may itself
/// be written with or without the `urn:uuid:` prefix (4.0 servers write it, Apple does not).
enum UIDReference {
    static let prefix = "urn:uuid:"

    /// The UID without a `urn:uuid:` prefix (any case).
    static func bare(_ uid: String) -> String {
        uid.utf8.count > prefix.utf8.count && uid.lowercased().hasPrefix(prefix) ? String(uid.dropFirst(9)) : uid
    }

    /// The forms a card's UID may be written in, for a bare reference: as is, and with the prefix.
    static func forms(_ bareUID: String) -> [String] { [bareUID, prefix + bareUID] }

    /// A reference's value: the UID with the prefix, written once.
    static func uri(_ uid: String) -> String { bare(uid) == uid ? prefix + uid : uid }
}
