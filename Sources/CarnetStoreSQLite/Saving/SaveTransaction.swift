import CarnetStore
import Foundation
import GRDB

/// The state of one save while its SQLite transaction is open: the commit's revision, the clock, and the
/// history events it appends.
struct SaveTransaction {
    let db: Database
    /// The revision of this commit (its `saveTransaction.seq`).
    let seq: Int64
    let now: Double
    private(set) var changed = false
    /// Contacts added less contacts deleted so far, for the stored count (``Migration007``).
    var contactDelta = 0
    /// The unified contacts whose name rows (``LinkedNameIndex``) this save must rewrite.
    var linkedNamesToRefresh: Set<String> = []
    /// The members deleted with the unified contacts this save deleted (``SaveResult/deletedMembers``).
    private(set) var deletedMembers: [String] = []
    /// The unified contacts this save ended (``SaveResult/endedUnifiedContacts``).
    var endedUnified: [String] = []
    /// ``SaveResult/unifiedContactsChangedByDeletes``.
    var unifiedChangedByDeletes: [String] = []
    /// The rowid the next added contact takes (read once, then counted): its name index rows need it first.
    private var nextRowid: Int64?
    private var containers: [String?: (rowid: Int64, identifier: String)] = [:]
    /// The groups whose revision this commit has set already (membership changes).
    var revisedGroups: Set<Int64> = []
    /// Groups that lost a member with a deleted contact in this commit, whose update is in the history already.
    var groupsLeft: Set<Int64> = []
    /// Their identifiers, in the order the deletes left them (``SaveResult/groupsLeftByDeletedContacts``).
    var groupsLeftIdentifiers: [String] = []

    init(db: Database, author: String?) throws {
        self.db = db
        self.now = Date().timeIntervalSince1970
        // Cached, as every statement a save runs each time: compiling one cost more than running it.
        try db.cachedStatement(sql: "INSERT INTO saveTransaction (author, timestamp) VALUES (?, ?)")
            .execute(arguments: [author, now])
        self.seq = db.lastInsertedRowID
    }

    /// Brings the stored count of contacts up to date: once per commit, after the operations.
    mutating func storeContactCount() throws {
        guard contactDelta != 0 else { return }
        try db.cachedStatement(sql: "UPDATE recordCount SET value = value + ? WHERE kind = 'contact'")
            .execute(arguments: [contactDelta])
        contactDelta = 0
    }

    /// Rewrites the name rows of the unified contacts the operations changed: once per commit, after them, when
    /// every member's names and preferences are final.
    mutating func refreshLinkedNames() throws {
        guard !linkedNamesToRefresh.isEmpty else { return }
        try LinkedNameIndex.refresh(db, linkedNamesToRefresh)
        linkedNamesToRefresh = []
    }

    /// How many contacts the book holds (as of the last ``storeContactCount()``).
    static func contactCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM recordCount WHERE kind = 'contact'")) ?? 0
    }

    /// Runs one operation and returns the identifier of the record it saved.
    mutating func apply(_ operation: SaveOperation) throws -> String {
        switch operation {
        case .addContact(let contact, let container):
            try addContact(contact, containerIdentifier: container)
            return contact.identifier
        case .updateContact(let contact, let base):
            do {
                try updateContact(contact, baseRevision: base)
            } catch let error as StoreError where error.code == .recordDoesNotExist {
                guard let group = try unifiedGroup(contact.identifier) else { throw error }
                try updateUnified(contact, group, baseRevision: base)
            }
            return contact.identifier
        case .deleteContact(let identifier):
            do {
                try deleteContact(identifier)
            } catch let error as StoreError where error.code == .recordDoesNotExist {
                // A unified contact's deletion deletes every member.
                guard let group = try unifiedGroup(identifier) else { throw error }
                for member in group.members { try deleteContact(member) }
                deletedMembers += group.members
            }
            return identifier
        case .addGroup(let group, let container):
            try addGroup(group, containerIdentifier: container)
            return group.identifier
        case .updateGroup(let group, let base):
            try updateGroup(group, baseRevision: base)
            return group.identifier
        case .deleteGroup(let identifier):
            try deleteGroup(identifier)
            return identifier
        case .addMember(let contact, let group):
            try changeMembership(contact: contact, group: group, add: true)
            return group
        case .removeMember(let contact, let group):
            try changeMembership(contact: contact, group: group, add: false)
            return group
        case .mergeContacts(let survivor, let absorbed):
            try mergeContacts(into: survivor, absorbing: absorbed)
            return survivor
        case .linkContacts(let identifiers):
            return try linkContacts(identifiers)
        case .unlinkContact(let identifier):
            try unlinkContact(identifier)
            return identifier
        case .setPreferredLinkedContact(let identifier, let forName):
            try preferLinkedContact(identifier, forName: forName)
            return identifier
        }
    }

    mutating func nextContactRowid() throws -> Int64 {
        let rowid =
            try nextRowid ?? ((Int64.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM contact")) ?? 0) + 1)
        nextRowid = rowid + 1
        return rowid
    }

    /// Appends a history event in this transaction.
    mutating func record(_ kind: ChangeEventKind, _ recordId: String, other: String? = nil, keys: [ContactKey]? = nil)
        throws
    {
        changed = true
        let statement = try db.cachedStatement(
            sql: "INSERT INTO changeEvent (seq, kind, recordId, otherId, changedKeys) VALUES (?, ?, ?, ?, ?)")
        var bind = SQLiteBinder(statement)
        bind.int64(seq)
        bind.int64(Int64(kind.rawValue))
        bind.text(recordId)
        bind.optionalText(other)
        bind.optionalText(keys.map(ChangedKeys.storage))
        try bind.execute()
    }

    /// Refuses an identifier that is malformed, in use by any record or value, or retired.
    func ensureUnused(_ identifier: String) throws {
        guard Identifiers.isValid(identifier) else {
            throw StoreError(.recordIdentifierInvalid, "Malformed identifier", affected: [identifier])
        }
        let used =
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM contact WHERE id = ?1)
                            OR EXISTS (SELECT 1 FROM "group" WHERE id = ?1)
                            OR EXISTS (SELECT 1 FROM container WHERE id = ?1)
                            OR EXISTS (SELECT 1 FROM labeledValue WHERE id = ?1)
                            OR EXISTS (SELECT 1 FROM retiredIdentifier WHERE id = ?1)
                            OR EXISTS (SELECT 1 FROM contactLink WHERE unifiedId = ?1)
                        """), arguments: [identifier]) ?? false
        if used {
            throw StoreError(
                .insertedRecordAlreadyExists, "The identifier is or was already in use", affected: [identifier])
        }
    }

    func ensureNotRetired(_ identifier: String) throws {
        let retired = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM retiredIdentifier WHERE id = ?)"),
            arguments: [identifier])
        if retired == true {
            throw StoreError(.insertedRecordAlreadyExists, "The identifier was used before", affected: [identifier])
        }
    }

    /// The container's rowid; `nil` means the default container. Looked up once per commit (no operation adds or
    /// removes containers): an import adds a thousand contacts to one.
    mutating func containerRowid(_ identifier: String?) throws -> (rowid: Int64, identifier: String) {
        if let known = containers[identifier] { return known }
        let found = try lookUpContainer(identifier)
        containers[identifier] = found
        return found
    }

    private func lookUpContainer(_ identifier: String?) throws -> (rowid: Int64, identifier: String) {
        let row: Row?
        if let identifier {
            row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT rowid, id FROM container WHERE id = ?"), arguments: [identifier])
        } else {
            row = try Row.fetchOne(db.cachedStatement(sql: "SELECT rowid, id FROM container WHERE isDefault"))
        }
        guard let row else {
            throw StoreError(.recordDoesNotExist, "No such container", affected: identifier.map { [$0] } ?? [])
        }
        return (row[0], row[1])
    }

    func retire(_ identifier: String, kind: RetiredKind, owner: String? = nil) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO retiredIdentifier (id, kind, ownerId, revision) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [identifier, kind.rawValue, owner, seq])
    }
}
