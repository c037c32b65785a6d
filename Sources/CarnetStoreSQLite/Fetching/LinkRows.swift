import CarnetStore
import GRDB

/// Reads and writes the `contactLink` rows (``Migration009``).
enum LinkRows {
    /// The unified contacts the identifiers name (their own identifier or a member's), each once.
    static func groups(_ db: Database, containing identifiers: [String]) throws -> [LinkGroup] {
        guard !identifiers.isEmpty,
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contactLink)")) == true
        else { return [] }
        return try groups(db, identifiers) { list in
            (
                """
                SELECT unifiedId FROM contactLink WHERE unifiedId IN (\(list.placeholders))
                UNION SELECT k.unifiedId FROM contact m JOIN contactLink k ON k.contactRowid = m.rowid
                WHERE m.id IN (\(list.placeholders))
                """, list.arguments + list.arguments
            )
        }
    }

    /// The unified contacts of the contacts with these rowids: a primary-key probe each, so a page asks cheaply.
    static func groups(_ db: Database, ofRowids rowids: [Int64]) throws -> [LinkGroup] {
        try groups(db, rowids) { list in
            ("SELECT unifiedId FROM contactLink WHERE contactRowid IN (\(list.placeholders))", list.arguments)
        }
    }

    /// The unified contacts whose identifiers `select` picks for each chunk of `values`, each once, their members
    /// in creation order.
    private static func groups<Value: DatabaseValueConvertible>(
        _ db: Database, _ values: [Value], select: (InList) -> (sql: String, arguments: StatementArguments)
    ) throws -> [LinkGroup] {
        var groups: [LinkGroup] = []
        for chunk in values.chunked(StoreLimits.pageSize) {
            let (selected, arguments) = select(InList(chunk))
            let statement = try db.cachedStatement(
                sql: """
                    SELECT l.unifiedId, c.id, l.preferredForName, l.preferredForImage
                    FROM contactLink l JOIN contact c ON c.rowid = l.contactRowid
                    WHERE l.unifiedId IN (\(selected))
                    ORDER BY l.unifiedId, l.contactRowid
                    """)
            let rows = try SQLiteRows(statement, arguments: arguments)
            var found: [(String, String, Bool, Bool)] = []
            while let columns = try rows.next() {
                found.append((columns.string(0), columns.string(1), columns.int64(2) != 0, columns.int64(3) != 0))
            }
            groups += LinkGroup.assembled(found)
        }
        var seen = Set<String>()
        return groups.filter { seen.insert($0.identifier).inserted }
    }

    /// ``UnifiedFetch/unify(_:keys:in:)`` in the page's own read transaction: its links and hidden members read
    /// beside it.
    static func unify(_ db: Database, _ page: ContactPage, keys: ContactKeySet) throws -> [Contact] {
        let contacts = page.contacts
        guard !contacts.isEmpty else { return contacts }
        let groups = try groups(db, ofRowids: page.positions.map(\.rowid))
        guard !groups.isEmpty else { return contacts }
        var (members, missing) = UnifiedFetch.membersNeeded(contacts, keys: keys, groups: groups)
        for chunk in missing.chunked(StoreLimits.pageSize) {
            let loaded = try SQLiteStore.contacts(
                db, identifiers: Array(chunk), keys: UnifiedContact.memberKeys(for: keys))
            for contact in loaded { members[contact.identifier] = contact }
        }
        return UnifiedFetch.replacing(contacts, keys: keys, groups: groups, members: members)
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
