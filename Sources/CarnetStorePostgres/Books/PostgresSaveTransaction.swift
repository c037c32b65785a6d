import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// The state of one save while its transaction is open: the book's row lock, the commit's revision, the clock, and
/// the history events it appends.
struct PostgresSaveTransaction {
    let connection: PostgresConnection
    let logger: Logger
    let bookID: String
    /// The revision of this commit.
    let seq: Int64
    /// How many operations make a save large (``begin(_:bookID:author:operations:logger:)``).
    static let largeSave = 100
    let now: Double
    let author: String?
    private(set) var changed = false
    /// The members deleted with the unified contacts this save deleted (``SaveResult/deletedMembers``).
    private(set) var deletedMembers: [String] = []
    /// The unified contacts this save ended (``SaveResult/endedUnifiedContacts``).
    var endedUnified: [String] = []
    /// ``SaveResult/unifiedContactsChangedByDeletes``.
    var unifiedChangedByDeletes: [String] = []
    /// The last history position assigned (the book's, before this save's first event).
    private(set) var position: Int64
    /// The book's count of contacts before this save, read with its lock (no other writer changes it meanwhile).
    private let storedContacts: Int64
    /// Contacts added less contacts deleted so far.
    var contactDelta = 0
    /// Unified contacts whose members, preferences or member names this save changed, and contacts whose names it
    /// changed: their rows of `contact_link_name` are written again after the operations.
    var linkedNamesToRefresh: Set<String> = []
    var renamedContacts: Set<String> = []
    private var nextCreatedOrder: Int64?
    /// The groups whose revision this commit has set already (membership changes).
    var revisedGroups: Set<String> = []
    /// Groups that lost a member with a deleted contact in this commit, whose update is in the history already.
    var groupsLeft: Set<String> = []
    /// The same, in the order the deletes left them (``SaveResult/groupsLeftByDeletedContacts``).
    var groupsLeftInOrder: [String] = []
    /// How this save changes each name prefix's count of contacts, written once at its end: a count updated per
    /// contact left a version of its row per update, which every later update of the save walked (a save of
    /// 2,500 contacts of one name took 24–35 s), and held the rows of common prefixes locked longer.
    var prefixCountChanges: [String: Int64] = [:]
    /// Containers this save has checked, by the identifier named ("" for the default one).
    var containerCache: [String: String] = [:]

    /// Takes the book's lock (its `book_store` row) for the rest of the transaction: saves to one book commit one
    /// after the other, in the order of their revisions and log positions.
    ///
    /// - Parameter operations: how many operations the save holds. From ``largeSave`` on, every foreign-key check
    ///   of the transaction is planned when it runs. Such checks are planned once per connection and kept until
    ///   the table's statistics change, which needs a commit: planned while a book's tables were new, the check of
    ///   each value or name row against `contact` chose `contact_created` and scanned every contact of the book, so
    ///   a save of 2,500 adds to a new book took 15 s and one of 10,000 took 90 s. Small saves keep the kept plans
    ///   (the link groups' prepared statement among them), which autovacuum's statistics soon correct.
    static func begin(
        _ connection: PostgresConnection, bookID: String, author: String?, operations: Int, logger: Logger
    ) async throws -> PostgresSaveTransaction {
        let planning = operations >= largeSave ? "force_custom_plan" : nil
        guard
            let (lastSeq, lastPosition, contacts, _) = try await connection.rows(
                """
                SELECT last_seq, last_position, contact_count,
                    set_config('plan_cache_mode', coalesce(\(planning), current_setting('plan_cache_mode')), true)
                FROM book_store WHERE book_id = \(bookID) FOR UPDATE
                """, logger: logger
            ).decode((Int64, Int64, Int64, String).self).array().first
        else { throw StoreError.noSuchBook(bookID) }
        return PostgresSaveTransaction(
            connection: connection, logger: logger, bookID: bookID, seq: lastSeq + 1,
            now: Date().timeIntervalSince1970, author: author, position: lastPosition, storedContacts: contacts)
    }

    private init(
        connection: PostgresConnection, logger: Logger, bookID: String, seq: Int64, now: Double, author: String?,
        position: Int64, storedContacts: Int64
    ) {
        self.connection = connection
        self.logger = logger
        self.bookID = bookID
        self.seq = seq
        self.now = now
        self.author = author
        self.position = position
        self.storedContacts = storedContacts
    }

    @discardableResult
    func run(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.rows(query, logger: logger)
    }

    /// Records the commit in the book's row: its revision, log position and count of contacts. A save that changed
    /// nothing leaves no trace, not even a used-up revision.
    func finish() async throws {
        guard changed else { return }
        try await applyPrefixCounts()
        // With a wake-up for every instance's subscribers, sent at commit: the book and its newest position, far
        // under NOTIFY's 8,000 bytes. Subscribers read the changes from their tokens, so a lost wake-up loses
        // nothing. One statement: a save's round trips are most of its time.
        try await run(
            """
            WITH stored AS (
                UPDATE book_store SET last_seq = \(seq), last_position = \(position),
                    contact_count = contact_count + \(Int64(contactDelta))
                WHERE book_id = \(bookID) RETURNING book_id
            )
            SELECT pg_notify(\(PostgresBooks.channel), \(bookID + " " + String(position))) FROM stored
            """)
    }

    /// Writes ``prefixCountChanges`` in one statement, each row once. Saves to a book hold its lock, so no other
    /// save changes its counts between the update and the insert.
    private func applyPrefixCounts() async throws {
        let changes = prefixCountChanges.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        guard !changes.isEmpty else { return }
        try await run(
            """
            WITH c AS (
                SELECT prefix COLLATE "C" AS prefix, change FROM unnest(\(changes.map(\.key))::text[], \(changes.map(\.value))::int8[])
                    AS c(prefix, change)
            ), updated AS (
                UPDATE contact_name_prefix_count n SET contacts = greatest(n.contacts + c.change, 0) FROM c
                WHERE n.book_id = \(bookID) AND n.prefix = c.prefix RETURNING n.prefix
            )
            INSERT INTO contact_name_prefix_count (book_id, prefix, contacts)
            SELECT \(bookID), prefix, change FROM c WHERE change > 0 AND prefix NOT IN (SELECT prefix FROM updated)
            ON CONFLICT (book_id, prefix) DO NOTHING
            """)
    }

    /// How many contacts the book holds, this save's adds and deletes included.
    var contactCount: Int { Int(storedContacts) + contactDelta }

    /// Runs one operation and returns the identifier of the record it saved.
    mutating func apply(_ operation: SaveOperation) async throws -> String {
        switch operation {
        case .addContact(let contact, let container):
            try await addContact(contact, containerIdentifier: container)
            return contact.identifier
        case .updateContact(let contact, let base):
            do {
                try await updateContact(contact, baseRevision: base)
            } catch let error as StoreError where error.code == .recordDoesNotExist {
                guard let group = try await unifiedGroup(contact.identifier) else { throw error }
                try await updateUnified(contact, group, baseRevision: base)
            }
            return contact.identifier
        case .deleteContact(let identifier):
            do {
                try await deleteContact(identifier)
            } catch let error as StoreError where error.code == .recordDoesNotExist {
                // A unified contact's deletion deletes every member.
                guard let group = try await unifiedGroup(identifier) else { throw error }
                for member in group.members { try await deleteContact(member) }
                deletedMembers += group.members
            }
            return identifier
        case .addGroup(let group, let container):
            try await addGroup(group, containerIdentifier: container)
            return group.identifier
        case .updateGroup(let group, let base):
            try await updateGroup(group, baseRevision: base)
            return group.identifier
        case .deleteGroup(let identifier):
            try await deleteGroup(identifier)
            return identifier
        case .addMember(let contact, let group):
            try await changeMembership(contact: contact, group: group, add: true)
            return group
        case .removeMember(let contact, let group):
            try await changeMembership(contact: contact, group: group, add: false)
            return group
        case .mergeContacts(let survivor, let absorbed):
            try await mergeContacts(into: survivor, absorbing: absorbed)
            return survivor
        case .linkContacts(let identifiers):
            return try await linkContacts(identifiers)
        case .unlinkContact(let identifier):
            try await unlinkContact(identifier)
            return identifier
        case .setPreferredLinkedContact(let identifier, let forName):
            try await preferLinkedContact(identifier, forName: forName)
            return identifier
        }
    }

    /// Where the next added contact goes in creation order.
    mutating func nextOrder() async throws -> Int64 {
        if nextCreatedOrder == nil {
            let highest = try await run(
                "SELECT coalesce(max(created_order), 0)::bigint FROM contact WHERE book_id = \(bookID)"
            ).decode(Int64.self).array().first
            nextCreatedOrder = (highest ?? 0) + 1
        }
        let order = nextCreatedOrder ?? 1
        nextCreatedOrder = order + 1
        return order
    }

    /// Appends a history event; the first one records the commit itself.
    mutating func record(_ kind: ChangeEventKind, _ recordId: String, other: String? = nil, keys: [ContactKey]? = nil)
        async throws
    {
        position += 1
        let changedKeys = keys.map(ChangedKeys.storage)
        guard changed else {
            // The commit's row and its first event in one statement.
            changed = true
            try await run(
                """
                WITH commit AS (
                    INSERT INTO save_transaction (book_id, seq, author, timestamp)
                    VALUES (\(bookID), \(seq), \(author), \(now))
                )
                INSERT INTO change_event (book_id, position, seq, kind, record_id, other_id, changed_keys)
                VALUES (\(bookID), \(position), \(seq), \(Int16(kind.rawValue)), \(recordId), \(other), \(changedKeys))
                """)
            return
        }
        try await run(
            """
            INSERT INTO change_event (book_id, position, seq, kind, record_id, other_id, changed_keys)
            VALUES (\(bookID), \(position), \(seq), \(Int16(kind.rawValue)), \(recordId), \(other), \(changedKeys))
            """)
    }

    /// Appends one event of `kind` for each record, in order, in one statement.
    /// - Parameter keys: each update event's changed keys, in the records' order.
    mutating func record(
        _ kind: ChangeEventKind, _ records: [(record: String, other: String?)], keys: [[ContactKey]]? = nil
    ) async throws {
        guard !records.isEmpty else { return }
        try await recordCommit()
        let first = position + 1
        position += Int64(records.count)
        var columns: [BatchColumn] = [
            .values("position", "int8", Array(first...position)),
            .values("seq", "int8", records.map { _ in seq }),
            .values("kind", "int2", records.map { _ in Int16(kind.rawValue) }),
            .values("record_id", "text", records.map(\.record)),
            .optional("other_id", records.map(\.other)),
        ]
        if let keys { columns.append(.values("changed_keys", "text", keys.map(ChangedKeys.storage))) }
        try await connection.insertBatch(into: "change_event", book: bookID, columns, logger: logger)
    }

    /// Records events of any kinds, in order, in one statement.
    mutating func record(_ events: [(kind: ChangeEventKind, record: String, other: String?)]) async throws {
        guard !events.isEmpty else { return }
        try await recordCommit()
        let first = position + 1
        position += Int64(events.count)
        try await connection.insertBatch(
            into: "change_event", book: bookID,
            [
                .values("position", "int8", Array(first...position)),
                .values("seq", "int8", events.map { _ in seq }),
                .values("kind", "int2", events.map { Int16($0.kind.rawValue) }),
                .values("record_id", "text", events.map(\.record)),
                .optional("other_id", events.map(\.other)),
            ], logger: logger)
    }

    /// The mark of the commit at ``position`` for the save's history token: this commit's when it logged events,
    /// else the book's newest, read here.
    func historyMark() async throws -> UInt64? {
        if changed { return HistoryToken.mark(revision: seq, timestamp: now) }
        return try await PostgresHistoryMarks.mark(connection, book: bookID, at: position, logger: logger)
    }

    /// Records the commit itself, before its first event.
    private mutating func recordCommit() async throws {
        guard !changed else { return }
        changed = true
        try await run(
            """
            INSERT INTO save_transaction (book_id, seq, author, timestamp)
            VALUES (\(bookID), \(seq), \(author), \(now))
            """)
    }

    /// Refuses an identifier that is malformed, in use by any record or value of the book, or retired.
    func ensureUnused(_ identifier: String) async throws {
        guard Identifiers.isValid(identifier) else {
            throw StoreError(.recordIdentifierInvalid, "Malformed identifier", affected: [identifier])
        }
        let used = try await run(
            """
            SELECT 1 FROM contact WHERE book_id = \(bookID) AND id = \(identifier)
            UNION ALL SELECT 1 FROM contact_group WHERE book_id = \(bookID) AND id = \(identifier)
            UNION ALL SELECT 1 FROM container WHERE book_id = \(bookID) AND id = \(identifier)
            UNION ALL SELECT 1 FROM labeled_value WHERE book_id = \(bookID) AND id = \(identifier)
            UNION ALL SELECT 1 FROM book_retired_identifier WHERE book_id = \(bookID) AND id = \(identifier)
            UNION ALL SELECT 1 FROM contact_link WHERE book_id = \(bookID) AND unified_id = \(identifier)
            LIMIT 1
            """
        ).collect()
        if !used.isEmpty {
            throw StoreError(
                .insertedRecordAlreadyExists, "The identifier is or was already in use", affected: [identifier])
        }
    }

    func ensureNotRetired(_ identifier: String) async throws {
        let retired = try await run(
            "SELECT 1 FROM book_retired_identifier WHERE book_id = \(bookID) AND id = \(identifier)"
        ).collect()
        if !retired.isEmpty {
            throw StoreError(.insertedRecordAlreadyExists, "The identifier was used before", affected: [identifier])
        }
    }

    /// The container's identifier, checked; `nil` means the default container.
    func container(_ identifier: String?) async throws -> String {
        let found: [String]
        if let identifier {
            found = try await run("SELECT id FROM container WHERE book_id = \(bookID) AND id = \(identifier)")
                .decode(String.self).array()
        } else {
            found = try await run("SELECT id FROM container WHERE book_id = \(bookID) AND is_default")
                .decode(String.self).array()
        }
        guard let container = found.first else {
            throw StoreError(.recordDoesNotExist, "No such container", affected: identifier.map { [$0] } ?? [])
        }
        return container
    }

    /// ``container(_:)``, read once per save for each container named: no operation of a save adds or removes one.
    mutating func cachedContainer(_ identifier: String?) async throws -> String {
        let key = identifier ?? ""
        if let known = containerCache[key] { return known }
        let container = try await container(identifier)
        containerCache[key] = container
        return container
    }

    /// Retires identifiers, in one statement: no record or value of the book can take them again.
    func retire(_ identifiers: [String], kind: RetiredKind, owner: String? = nil) async throws {
        try await run(
            """
            INSERT INTO book_retired_identifier (book_id, id, kind, owner_id, revision)
            SELECT \(bookID), id, \(Int16(kind.rawValue)), \(owner), \(seq) FROM unnest(\(identifiers)::text[]) AS id
            ON CONFLICT (book_id, id) DO UPDATE SET kind = excluded.kind, owner_id = excluded.owner_id,
                revision = excluded.revision
            """)
    }
}
