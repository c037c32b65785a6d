/// The documented size limits the store validates on save.
///
/// Lengths are in UTF-8 bytes. Single-line fields refuse control characters; the note allows tab and newlines.
public enum StoreLimits {
    /// Names, organization, department, job title, labels of structured fields, group and container names.
    public static let singleLineBytes = 1_024
    /// The note.
    public static let noteBytes = 65_536
    /// A labeled value's label.
    public static let labelBytes = 256
    /// An email address (RFC 5321's path limit).
    public static let emailBytes = 320
    /// A phone number as typed.
    public static let phoneBytes = 64
    /// A URL or social profile URL.
    public static let urlBytes = 2_048
    /// Values in one multi-value property.
    public static let valuesPerProperty = 100
    /// Groups one vCard's CATEGORIES put its contact in: past it the CATEGORIES line is kept as a vCard property,
    /// so one card of a 1 MiB request cannot make 200,000 groups.
    public static let categoriesPerCard = 1_000
    /// vCard properties kept for a contact (``ContactKey/vCardProperties``).
    public static let vCardPropertiesPerContact = 1_000
    /// One kept vCard property line: as long as the longest line the vCard reader takes (10 MiB), so a value
    /// over another limit (a note of 200,000 characters in any script) can always be kept as its line.
    public static let vCardPropertyBytes = 10 * 1024 * 1024
    /// The full-size image.
    public static let imageDataBytes = 5 * 1024 * 1024
    /// The thumbnail image.
    public static let thumbnailImageDataBytes = 256 * 1024
    /// A record identifier: 1 to 128 characters from `A-Z a-z 0-9 . _ : -`.
    public static let identifierBytes = 128
    /// Operations in one save request.
    public static let operationsPerSave = 10_000
    /// The most contacts one merge absorbs.
    public static let contactsPerMerge = 100
    /// The most member contacts one unified contact links.
    public static let contactsPerUnifiedContact = 100
    /// The most unified contacts a unified search's total count reads (those meeting the search through their
    /// members); a broader count is refused and can run with `unify: false`. Pages do not read them one by one and
    /// have no such bound.
    public static let unifiedSearchLinkedMatches = 10_000
    /// The largest page a fetch may ask for.
    public static let pageSize = 1_000
    /// The most words a name search may hold: each is a prefix read of the name index (512 of "a" in 20 aliases
    /// held a core for seconds apiece), and names people type have a few.
    public static let nameSearchWords = 12
    /// The most contacts a key may be shared by and still count as evidence of a duplicate
    /// (``ContactStore/duplicateCandidates(_:)``): a switchboard number or an `info@` address shared by more is
    /// left out, so the pairs stay at most 190 per key on any data.
    public static let duplicateKeySharers = 20
    /// The most reasons of one kind a duplicate candidate lists (two contacts may share a hundred email
    /// addresses): the score counts kinds, and a pair's evidence stays small however much the two share.
    public static let duplicateReasonsPerKind = 10
    /// The most pairs of contacts sharing a key that ``ContactStore/duplicateCandidates(_:)`` ranks: each contact's
    /// 200 emails and phone numbers may each be shared by 19 others, so a book built for it makes pairs by the
    /// square of its size (3 million of 4,000 contacts, an outside tester's find). Past it the read fails with
    /// `MAX_DUPLICATE_PAIRS_EXCEEDED` and holds no more.
    public static let duplicatePairs = 1_000_000
    /// The longest sort key kept (the folded names a name order sorts by): an index entry must fit PostgreSQL's
    /// B-tree limit of about 2.7 kB. Contacts whose folded names agree in their first 1,536 bytes sort by
    /// identifier, on every backend.
    public static let sortKeyBytes = 1_536
    /// The bytes of a kept vCard UID that its index key holds (like the sort key): a longer UID is indexed by its
    /// first bytes (``KeptVCardLine/uidSearchKey(_:)``), and a re-import still compares it whole.
    public static let indexedUIDBytes = singleLineBytes
}
