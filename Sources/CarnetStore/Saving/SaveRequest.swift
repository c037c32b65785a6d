/// One atomic batch of changes (`CNSaveRequest`): it commits whole or not at all.
///
/// Operations run in order, so a contact added by one operation can join a group in a later one.
public struct SaveRequest: Sendable {
    /// Who makes the change; recorded on every history event, and matched by `excludedAuthors`.
    public var transactionAuthor: String?
    /// The operations, in the order they run.
    public var operations: [SaveOperation] = []
    /// Group names the request's containers must not bear when its commit adds a group of the name (checked as the
    /// first such operation runs; ``GroupNameAbsence/Pending``): the commit is refused with
    /// ``GroupNameAbsence/conflict(container:)`` when one does, and writes nothing.
    package var absentGroupNames: [GroupNameAbsence] = []
    /// When the save must be done by: an operation that would start at or after it fails the save with
    /// `MAX_EXECUTION_TIME_EXCEEDED`, and nothing is written. A request's time limit (the GraphQL executor's):
    /// thousands of costly operations (links of large unified contacts) held the book's write lock for a minute,
    /// every other writer waiting (an outside tester's find). `nil`: no limit (the CLI's imports).
    public var deadline: ContinuousClock.Instant?

    public init(transactionAuthor: String? = nil, operations: [SaveOperation] = []) {
        self.transactionAuthor = transactionAuthor
        self.operations = operations
    }

    /// Adds a new contact to a container (`nil`: the default container).
    public mutating func add(_ contact: Contact, toContainerWithIdentifier container: String? = nil) {
        operations.append(.addContact(contact, containerIdentifier: container))
    }

    /// Writes the contact's ``Contact/modifiedKeys``.
    ///
    /// - Parameter baseRevision: the contact's revision when it was read. When given and the contact changed
    ///   since, the save merges if none of the modified keys (for multi-values: none of the touched values)
    ///   changed since, and fails with ``StoreError/Code/conflict`` otherwise. When `nil`, last writer wins.
    public mutating func update(_ contact: Contact, baseRevision: Int64? = nil) {
        operations.append(.updateContact(contact, baseRevision: baseRevision))
    }

    public mutating func delete(contactWithIdentifier identifier: String) {
        operations.append(.deleteContact(identifier: identifier))
    }

    public mutating func add(_ group: Group, toContainerWithIdentifier container: String? = nil) {
        operations.append(.addGroup(group, containerIdentifier: container))
    }

    public mutating func update(_ group: Group, baseRevision: Int64? = nil) {
        operations.append(.updateGroup(group, baseRevision: baseRevision))
    }

    public mutating func delete(groupWithIdentifier identifier: String) {
        operations.append(.deleteGroup(identifier: identifier))
    }

    public mutating func addMember(_ contactIdentifier: String, toGroup groupIdentifier: String) {
        operations.append(.addMember(contactIdentifier: contactIdentifier, groupIdentifier: groupIdentifier))
    }

    public mutating func removeMember(_ contactIdentifier: String, fromGroup groupIdentifier: String) {
        operations.append(.removeMember(contactIdentifier: contactIdentifier, groupIdentifier: groupIdentifier))
    }

    /// Merges contacts of the survivor's container into it (``ContactMerge`` states the rules): the survivor takes
    /// their values and group memberships, and they are deleted, in this save's transaction.
    public mutating func merge(contactsWithIdentifiers absorbed: [String], into survivor: String) {
        operations.append(.mergeContacts(into: survivor, from: absorbed))
    }

    /// Links contacts (of any containers of the book) into one unified contact; a named unified contact brings
    /// all its members (``LinkPlan`` states the rules).
    public mutating func link(contactsWithIdentifiers identifiers: [String]) {
        operations.append(.linkContacts(identifiers: identifiers))
    }

    /// Takes a contact out of its unified contact.
    public mutating func unlink(contactWithIdentifier identifier: String) {
        operations.append(.unlinkContact(identifier: identifier))
    }

    /// Makes a linked contact the one its unified contact takes its name from (and sorts by).
    public mutating func setPreferredForName(contactWithIdentifier identifier: String) {
        operations.append(.setPreferredLinkedContact(identifier: identifier, forName: true))
    }

    /// Makes a linked contact the one its unified contact takes its image from.
    public mutating func setPreferredForImage(contactWithIdentifier identifier: String) {
        operations.append(.setPreferredLinkedContact(identifier: identifier, forName: false))
    }
}

/// One operation of a ``SaveRequest``.
public enum SaveOperation: Sendable {
    case addContact(Contact, containerIdentifier: String?)
    case updateContact(Contact, baseRevision: Int64?)
    case deleteContact(identifier: String)
    case addGroup(Group, containerIdentifier: String?)
    case updateGroup(Group, baseRevision: Int64?)
    case deleteGroup(identifier: String)
    case addMember(contactIdentifier: String, groupIdentifier: String)
    case removeMember(contactIdentifier: String, groupIdentifier: String)
    /// `into` absorbs the contacts `from`: see ``SaveRequest/merge(contactsWithIdentifiers:into:)``.
    case mergeContacts(into: String, from: [String])
    /// See ``SaveRequest/link(contactsWithIdentifiers:)``.
    case linkContacts(identifiers: [String])
    /// See ``SaveRequest/unlink(contactWithIdentifier:)``.
    case unlinkContact(identifier: String)
    /// The member a unified contact takes its name (`forName`) or its image from.
    case setPreferredLinkedContact(identifier: String, forName: Bool)
}

/// What a committed save did.
public struct SaveResult: Sendable, Hashable {
    /// The revision of this commit: every record it changed now has it. `nil` when nothing changed.
    public var revision: Int64?
    /// The history token after this save: fetching changes since it starts after this commit.
    public var historyToken: String
    /// For each operation, the identifier of the record it saved (the contact or group; for membership
    /// changes, the group).
    public var recordIdentifiers: [String]
    /// The member contacts deleted with a unified contact a `deleteContact` named: contacts the client may hold
    /// under their own identifiers (an individual client, or a unified one that has not heard of the link yet).
    public var deletedMembers: [String]
    /// The unified contacts this save ended: a link that took their members into another, an unlink or a deletion
    /// that left one member. The history records each as deleted under this save's author, so a client that
    /// excludes its own author hears of it only here, even when it knew none of the members the save named.
    public var endedUnifiedContacts: [String]
    /// The groups that lost members with the contacts this save deleted (merged contacts' absorbed ones and a
    /// unified contact's members included), in the order the deletes left them: their revisions and member counts
    /// moved, and a client that excludes its own author hears of it only here (an outside tester's find).
    public var groupsLeftByDeletedContacts: [String]
    /// The unified contacts that lost members with the contacts this save deleted and go on, and the members left
    /// alone by those the deletes ended, in the order the deletes changed them: what they show moved (values,
    /// linked contacts) with no event of their own, and a client that excludes its own author hears of it only
    /// here (an outside tester's find).
    public var unifiedContactsChangedByDeletes: [String]

    package init(
        revision: Int64?, historyToken: String, recordIdentifiers: [String], deletedMembers: [String] = [],
        endedUnifiedContacts: [String] = [], groupsLeftByDeletedContacts: [String] = [],
        unifiedContactsChangedByDeletes: [String] = []
    ) {
        self.revision = revision
        self.historyToken = historyToken
        self.recordIdentifiers = recordIdentifiers
        self.deletedMembers = deletedMembers
        self.endedUnifiedContacts = endedUnifiedContacts
        self.groupsLeftByDeletedContacts = groupsLeftByDeletedContacts
        self.unifiedContactsChangedByDeletes = unifiedContactsChangedByDeletes
    }
}
