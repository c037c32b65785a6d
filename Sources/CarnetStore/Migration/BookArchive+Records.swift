import Foundation

/// A group as stored.
public struct ArchivedGroup: Sendable, Hashable {
    public var identifier: String
    public var containerID: String
    public var name: String
    public var createdOrder: Int64
    public var createdRevision: Int64
    public var nameRevision: Int64
    public var revision: Int64
    public var createdAt: Double
    public var modifiedAt: Double

    public init(
        identifier: String, containerID: String, name: String, createdOrder: Int64, createdRevision: Int64,
        nameRevision: Int64, revision: Int64, createdAt: Double, modifiedAt: Double
    ) {
        self.identifier = identifier
        self.containerID = containerID
        self.name = name
        self.createdOrder = createdOrder
        self.createdRevision = createdRevision
        self.nameRevision = nameRevision
        self.revision = revision
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }
}

/// A contact's membership of a group.
public struct ArchivedMembership: Sendable, Hashable {
    public var groupID: String
    public var contactID: String

    public init(groupID: String, contactID: String) {
        self.groupID = groupID
        self.contactID = contactID
    }
}

/// The content a labeled value had before a change: a merge's evidence of what a client's base held.
public struct ArchivedValueVersion: Sendable, Hashable {
    public var valueID: String
    public var supersededRevision: Int64
    public var label: String?
    public var value: String

    public init(valueID: String, supersededRevision: Int64, label: String?, value: String) {
        self.valueID = valueID
        self.supersededRevision = supersededRevision
        self.label = label
        self.value = value
    }
}

/// The identifier of a deleted record or value: never handed out again.
public struct ArchivedRetiredIdentifier: Sendable, Hashable {
    public var identifier: String
    /// A `RetiredKind` raw value.
    public var kind: Int
    /// The contact a retired labeled value belonged to.
    public var ownerID: String?
    public var revision: Int64

    public init(identifier: String, kind: Int, ownerID: String?, revision: Int64) {
        self.identifier = identifier
        self.kind = kind
        self.ownerID = ownerID
        self.revision = revision
    }
}

/// A commit: its revision, author and time.
public struct ArchivedTransaction: Sendable, Hashable {
    public var revision: Int64
    public var author: String?
    public var timestamp: Double

    public init(revision: Int64, author: String?, timestamp: Double) {
        self.revision = revision
        self.author = author
        self.timestamp = timestamp
    }
}

/// One entry of the change log, at its position.
public struct ArchivedEvent: Sendable, Hashable {
    public var position: Int64
    public var revision: Int64
    /// A ``ChangeEventKind`` raw value.
    public var kind: Int
    public var recordID: String
    public var otherID: String?
    public var changedKeys: String?

    public init(position: Int64, revision: Int64, kind: Int, recordID: String, otherID: String?, changedKeys: String?) {
        self.position = position
        self.revision = revision
        self.kind = kind
        self.recordID = recordID
        self.otherID = otherID
        self.changedKeys = changedKeys
    }
}
