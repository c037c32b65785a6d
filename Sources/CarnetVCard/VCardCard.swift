import CarnetStore

/// One card read from a vCard file: the contact built from it and what Carnet keeps beside the contact.
public struct VCardCard: Sendable {
    /// A new contact holding every mapped property. Its identifier is the card's UID when that is a valid Carnet
    /// identifier (letters, digits, `.`, `_`, `:`, `-`, at most 128 characters), a fresh one otherwise.
    public var contact: Contact
    /// The card's UID as written, valid identifier or not; `nil` when the card has none.
    public var uid: String?
    /// The names in the card's CATEGORIES, trimmed and without duplicates, in file order: Carnet's groups.
    public var categories: [String]
    /// Every property Carnet has no key for, unfolded and exactly as in the file (group prefix and parameters
    /// included), in file order. Pass them back to ``VCardWriter`` so a round trip loses nothing.
    public var unmappedProperties: [String]
    /// The card's VERSION: `"2.1"`, `"3.0"` or `"4.0"`.
    public var version: String
    /// The 1-based line of the card's BEGIN:VCARD.
    public var line: Int

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
