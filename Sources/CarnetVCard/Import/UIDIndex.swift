/// Cards of a file by the UID references (MEMBER, RELATED) may name them by. A reference names a card's UID as
/// written, after one `urn:uuid:` (``UIDReference/named(_:)``), and that exact UID is looked up first; only then
/// the bare UID (``UIDReference/key(_:)``), for writers that give a card `UID:urn:uuid:x` and name it
/// `urn:uuid:x`. Exact first keeps `abc` and `urn:uuid:abc`, two contacts, apart: an export names them
/// `urn:uuid:abc` and `urn:uuid:urn:uuid:abc`, and a bare key alone read both as one (an outside tester's find).
struct UIDIndex {
    private var exact: [ExactText: String] = [:]
    private var bare: [ExactText: String] = [:]

    /// The value of the card a reference names: the card of that exact UID, else of that bare UID.
    subscript(reference: String) -> String? {
        exact[ExactText(reference)] ?? bare[UIDReference.key(reference)]
    }

    /// Notes a card's value under its UID as written; a later card with the same UID replaces it.
    mutating func insert(_ value: String, uid: String) {
        exact[ExactText(uid)] = value
        bare[UIDReference.key(uid)] = value
    }

    /// Every value noted (each card's UID as written keeps the last of its values).
    var values: Dictionary<ExactText, String>.Values { exact.values }
}
