import CarnetStore
import GRDB

/// Reads and writes the `contactLink` rows (``Migration009``).
enum LinkRows {
    /// The unified contacts the identifiers name (their own identifier or a member's), each once.
    static func groups(_ db: Database, containing identifiers: [String]) throws -> [LinkGroup] {
        guard !identifiers.isEmpty,
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contactLink)")) == true
        else { return [] }
        var noRowids: [String: Int64]?
        return try groups(db, identifiers, lists: 2, memberRowids: &noRowids) { list in
            """
            SELECT unifiedId FROM contactLink WHERE unifiedId IN (\(list))
            UNION SELECT k.unifiedId FROM contact m JOIN contactLink k ON k.contactRowid = m.rowid
            WHERE m.id IN (\(list))
            """
        }
    }

    /// The unified contacts of the contacts with these rowids: a primary-key probe each, so a page asks cheaply.
    /// - Parameter memberRowids: filled with each member's rowid, when given.
    static func groups(_ db: Database, ofRowids rowids: [Int64], memberRowids: inout [String: Int64]?) throws
        -> [LinkGroup]
    {
        try groups(db, rowids, lists: 1, memberRowids: &memberRowids) { list in
            "SELECT unifiedId FROM contactLink WHERE contactRowid IN (\(list))"
        }
    }

    /// The unified contacts whose identifiers `select` picks for each chunk of `values` (its `IN` lists, `lists`
    /// of them, all the chunk), each once, their members in creation order; `memberRowids`, when given, gets
    /// each member's rowid.
    private static func groups<Value: SQLiteKeyValue>(
        _ db: Database, _ values: [Value], lists: Int, memberRowids: inout [String: Int64]?,
        select: (_ placeholders: String) -> String
    ) throws -> [LinkGroup] {
        var groups: [LinkGroup] = []
        for chunk in values.chunked(StoreLimits.pageSize) {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT l.unifiedId, c.id, l.preferredForName, l.preferredForImage, l.contactRowid
                    FROM contactLink l JOIN contact c ON c.rowid = l.contactRowid
                    WHERE l.unifiedId IN (\(select(InList.placeholders(chunk.count))))
                    ORDER BY l.unifiedId, l.contactRowid
                    """)
            // Bound and stepped straight through SQLite, as the contact loader does: a page asks on every read.
            var binder = SQLiteBinder(statement)
            for _ in 0..<lists { InList.bind(chunk, to: &binder) }
            let rows = SQLiteSteppedRows(statement.sqliteStatement)
            var found: [(String, String, Bool, Bool)] = []
            while let columns = try rows.next() {
                found.append((columns.string(0), columns.string(1), columns.int64(2) != 0, columns.int64(3) != 0))
                memberRowids?[columns.string(1)] = columns.int64(4)
            }
            groups += LinkGroup.assembled(found)
        }
        // One statement's rows are ordered by unified identifier, so only several chunks can repeat a group.
        guard values.count > StoreLimits.pageSize else { return groups }
        var seen = Set<String>()
        return groups.filter { seen.insert($0.identifier).inserted }
    }

    /// ``UnifiedFetch/unify(_:keys:in:)`` in the page's own read transaction: its links and hidden members read
    /// beside it.
    /// - Parameter servesMembers: whether the page was read with the member keys
    ///   (``UnifiedFetch/pageServesMembers(_:)``) and without its labeled values and images
    ///   (``ContactFetch/readsRelated``): its contacts then serve as members, and their values are read here with
    ///   the hidden members', one statement for both. Otherwise the page is whole and members are read apart.
    static func unify(_ db: Database, _ page: ContactPage, keys: ContactKeySet, servesMembers: Bool) throws
        -> [Contact]
    {
        var contacts = page.contacts
        let rowids = page.positions.map(\.rowid)
        guard rowids.count == contacts.count else {
            // Both page readers give a position per contact; without them the page cannot be unified here.
            throw StoreError(.storageFailure, "A page's positions do not match its contacts.")
        }
        guard !contacts.isEmpty else { return contacts }
        let loader = ContactLoader(keys: UnifiedContact.memberKeys(for: keys))
        var memberRowids: [String: Int64]? = [:]
        let groups = try groups(db, ofRowids: rowids, memberRowids: &memberRowids)
        guard !groups.isEmpty, let memberRowids else {
            if servesMembers { try loader.loadRelated(db, rowids: rowids, into: &contacts) }
            return contacts
        }
        // Matched by rowid: hashing each page contact's identifier cost more than the rest of this.
        var groupOfRowid: [Int64: Int] = [:]
        for (index, group) in groups.enumerated() {
            for member in group.members { if let rowid = memberRowids[member] { groupOfRowid[rowid] = index } }
        }
        let groupAt = rowids.map { groupOfRowid[$0] }
        var missing = Set(groupOfRowid.keys)
        if servesMembers {
            for (position, group) in groupAt.enumerated() where group != nil { missing.remove(rowids[position]) }
        }
        // The others (hidden members) by rowid, the table's own key, rather than through the identifier index.
        let hidden = try loader.loadUnordered(db, column: "rowid", values: Array(missing), related: !servesMembers)
        var members: [String: Contact] = [:]
        guard servesMembers else {
            for contact in hidden.contacts { members[contact.identifier] = contact }
            return UnifiedFetch.replacing(contacts, keys: keys, groups: groups, members: members) { groupAt[$0] }
        }
        var all = contacts + hidden.contacts
        try loader.loadRelated(db, rowids: rowids + hidden.rowids, into: &all)
        contacts = Array(all[..<contacts.count])
        for contact in all[contacts.count...] { members[contact.identifier] = contact }
        for (position, group) in groupAt.enumerated() where group != nil {
            members[contacts[position].identifier] = contacts[position]
        }
        return UnifiedFetch.replacing(contacts, keys: keys, groups: groups, members: members) { groupAt[$0] }
    }

    /// Whether any linked contact is not its unified contact's name-preferred member.
    static func hasHiddenMembers(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contact WHERE linkHidden)")) ?? false
    }

    static func hiddenMemberCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM contact WHERE linkHidden")) ?? 0
    }
}

extension SQLiteStore {
    /// The unified contacts the identifiers name, by their own identifier or a member's.
    public func linkGroups(containing identifiers: [String]) async throws -> [LinkGroup] {
        guard !identifiers.isEmpty else { return [] }
        return try await read { db in try LinkRows.groups(db, containing: identifiers) }
    }
}
