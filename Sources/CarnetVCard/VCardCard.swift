import CarnetStore

/// One card read from a vCard file: the contact built from it and what Carnet keeps beside the contact.
public struct VCardCard: Sendable {
    /// What the card stands for.
    public enum Kind: Sendable, Hashable {
        /// A person or an organization (``VCardCard/contact``).
        case contact
        /// A group: 4.0's `KIND:group` or Apple's `X-ADDRESSBOOKSERVER-KIND:group`, named by FN, with its members
        /// in ``VCardCard/memberUIDs``.
        case group
    }

    /// A new contact holding every mapped property. Its identifier is the card's UID when that is a valid Carnet
    /// identifier (letters, digits, `.`, `_`, `:`, `-`, at most 128 characters), a fresh one otherwise.
    public var contact: Contact
    /// The card's UID as written, valid identifier or not; `nil` when the card has none.
    public var uid: String?
    /// The names in the card's CATEGORIES, trimmed and without duplicates, in file order: Carnet's groups.
    public var categories: [String]
    /// Every property Carnet has no key for, unfolded and exactly as in the file (group prefix and parameters
    /// included), in file order. Pass them back to ``VCardWriter`` so a round trip loses nothing. A 2.1 line is
    /// kept in the form 3.0 and 4.0 read: its quoted-printable or base64 decoded, its CHARSET gone.
    public var unmappedProperties: [String]
    /// The card's VERSION: `"2.1"`, `"3.0"` or `"4.0"`.
    public var version: String
    /// The 1-based line of the card's BEGIN:VCARD.
    public var line: Int
    /// Contact or group.
    public var kind: Kind = .contact
    /// A group card's name (its FN, else the first component of N); empty for a contact.
    public var groupName = ""
    /// A group card's members by UID (`urn:uuid:` taken off), from MEMBER or X-ADDRESSBOOKSERVER-MEMBER.
    public var memberUIDs: [String] = []
    /// The file line of each of ``memberUIDs``, in the same order.
    public var memberLines: [Int] = []
    /// 4.0 `RELATED` lines that name another card by UID (`urn:uuid:…`), resolved on import to a relation with
    /// that card's name. The lines themselves stay in ``unmappedProperties`` for the round trip.
    public var relatedUIDs: [RelatedUID] = []
    /// Values kept as vCard properties because the store could not hold them as keys.
    public var warnings: [VCardWarning] = []
    /// Key paths the store would still refuse (the reader could not trace them to a line to keep aside); the
    /// importer skips such a card.
    var unresolvedProblems: [String] = []
    /// Whether the card has a CATEGORIES line, empty or not: an empty one says the contact is in no group it could
    /// name, where a card without one says nothing of groups.
    public var hasCategories = false

    /// A RELATED reference: the label its TYPE gives and the UID it names.
    public struct RelatedUID: Sendable, Hashable {
        /// The label its TYPE (or its group's X-ABLabel) gives, as a relation's label.
        public var label: String?
        /// The UID named, `urn:uuid:` taken off.
        public var uid: String
        /// The 1-based line of the RELATED property.
        public var line: Int
    }

    /// A card to write or to compare with; the reader builds its own.
    public init(
        contact: Contact, uid: String? = nil, categories: [String] = [], unmappedProperties: [String] = [],
        version: String = "3.0", line: Int = 1
    ) {
        self.contact = contact
        self.uid = uid
        self.categories = categories
        self.unmappedProperties = unmappedProperties
        self.version = version
        self.line = line
    }
}
