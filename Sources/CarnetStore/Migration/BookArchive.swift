import Foundation

/// One address book's whole stored state, in the form both backends keep, as a stream of sections: what
/// `carnet migrate-store` copies from one backend to another.
///
/// Everything a client may hold is kept: record and value identifiers, revisions (a save based on a revision merges
/// as before), the change log with its positions and authors, retired identifiers, and the creation orders a full
/// sync's snapshot token continues from. With the store identifier kept too, clients' history tokens go on working.
/// Sections come in dependency order: the header, containers, contacts, groups, memberships, then the rest; each
/// holds a bounded batch, so a book of a million contacts never sits in memory at once.
public enum BookArchiveSection: Sendable {
    case header(BookArchiveHeader)
    case containers([Container])
    case contacts([ArchivedContact])
    case groups([ArchivedGroup])
    /// (group, contact) pairs.
    case memberships([ArchivedMembership])
    /// Linked contacts: one row per member of a unified contact.
    case links([LinkGroup])
    case valueVersions([ArchivedValueVersion])
    case retiredIdentifiers([ArchivedRetiredIdentifier])
    case transactions([ArchivedTransaction])
    case events([ArchivedEvent])
}

/// A book's counters: its identity in history tokens and where its revisions and log stand.
public struct BookArchiveHeader: Sendable, Hashable {
    public var storeID: String
    /// The newest revision (commit number) handed out.
    public var lastRevision: Int64
    /// The newest change-log position handed out, kept even when compaction removed the events.
    public var lastPosition: Int64
    /// The oldest position a token may still continue from.
    public var oldestPosition: Int64
    /// The mark of the commit at `oldestPosition` once compaction removed its event (tokens held there are checked
    /// against it); `nil` when the book was never compacted, or before marks.
    public var oldestMark: UInt64?
    /// The stored `.userDefault` sort order, if one was set.
    public var userDefaultSortOrder: String?

    public init(
        storeID: String, lastRevision: Int64, lastPosition: Int64, oldestPosition: Int64, oldestMark: UInt64? = nil,
        userDefaultSortOrder: String?
    ) {
        self.storeID = storeID
        self.lastRevision = lastRevision
        self.lastPosition = lastPosition
        self.oldestPosition = oldestPosition
        self.oldestMark = oldestMark
        self.userDefaultSortOrder = userDefaultSortOrder
    }
}

/// A contact as stored: its single values, its labeled values with their identifiers and revisions, and its
/// bookkeeping. Derived data (sort keys, name words, search keys) is left out: the receiving backend computes it.
public struct ArchivedContact: Sendable, Hashable {
    public var identifier: String
    public var containerID: String
    public var contactType: Int
    /// The string keys' values in ``ContactKey/stringKeys`` order.
    public var strings: [String]
    /// ``ContactDate`` storage strings.
    public var birthday: String?
    public var nonGregorianBirthday: String?
    public var imageData: Data?
    public var thumbnailImageData: Data?
    /// The order of creation, which a full sync's snapshot token continues from.
    public var createdOrder: Int64
    public var createdRevision: Int64
    public var revision: Int64
    public var createdAt: Double
    public var modifiedAt: Double
    /// The revision at which each key last changed (raw key names), for keys changed after the add.
    public var keyRevisions: [String: Int64]
    public var labeledValues: [ArchivedLabeledValue]

    public init(
        identifier: String, containerID: String, contactType: Int, strings: [String], birthday: String?,
        nonGregorianBirthday: String?, imageData: Data?, thumbnailImageData: Data?, createdOrder: Int64,
        createdRevision: Int64, revision: Int64, createdAt: Double, modifiedAt: Double, keyRevisions: [String: Int64],
        labeledValues: [ArchivedLabeledValue]
    ) {
        self.identifier = identifier
        self.containerID = containerID
        self.contactType = contactType
        self.strings = strings
        self.birthday = birthday
        self.nonGregorianBirthday = nonGregorianBirthday
        self.imageData = imageData
        self.thumbnailImageData = thumbnailImageData
        self.createdOrder = createdOrder
        self.createdRevision = createdRevision
        self.revision = revision
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.keyRevisions = keyRevisions
        self.labeledValues = labeledValues
    }
}

/// A labeled value as stored: its encoded content (``EncodedLabeledValue``) and revisions.
public struct ArchivedLabeledValue: Sendable, Hashable {
    public var identifier: String
    /// A ``MultiValueKind`` raw value.
    public var kind: Int
    public var position: Int
    public var label: String?
    public var value: String
    public var createdRevision: Int64
    public var revision: Int64

    public init(
        identifier: String, kind: Int, position: Int, label: String?, value: String, createdRevision: Int64,
        revision: Int64
    ) {
        self.identifier = identifier
        self.kind = kind
        self.position = position
        self.label = label
        self.value = value
        self.createdRevision = createdRevision
        self.revision = revision
    }
}
