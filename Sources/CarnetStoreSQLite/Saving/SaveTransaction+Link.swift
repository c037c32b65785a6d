import CarnetStore
import GRDB

extension SaveTransaction {
    /// Links the contacts and returns the unified contact's identifier.
    mutating func linkContacts(_ identifiers: [String]) throws -> String {
        var targets: [(identifier: String, target: LinkPlan.Target)] = []
        var rowids: [String: Int64] = [:]
        let groups = try LinkRows.groups(db, containing: identifiers)
        for identifier in identifiers {
            if let rowid = try contactRowid(identifier) {
                rowids[identifier] = rowid
                targets.append((identifier, .contact(identifier, groups.first { $0.members.contains(identifier) })))
            } else if let group = groups.first(where: { $0.identifier == identifier }) {
                targets.append((identifier, .unified(group)))
            } else {
                throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
            }
        }
        for member in groups.flatMap(\.members) where rowids[member] == nil {
            rowids[member] = try contactRowid(member)
        }
        let plan = try LinkPlan.link(targets, creationOrder: rowids, makeIdentifier: Contact.makeIdentifier)
        try apply(plan)
        return plan.written[0].identifier
    }

    mutating func unlinkContact(_ identifier: String) throws {
        try apply(LinkPlan.unlink(identifier, from: try linkGroup(ofMember: identifier)))
    }

    mutating func preferLinkedContact(_ identifier: String, forName: Bool) throws {
        try apply(LinkPlan.prefer(identifier, in: try linkGroup(ofMember: identifier), forName: forName))
    }

    /// Takes a contact about to be deleted out of its unified contact, if it is in one.
    mutating func unlinkBeforeDelete(_ identifier: String) throws {
        guard let group = try LinkRows.groups(db, containing: [identifier]).first,
            group.members.contains(identifier)
        else { return }
        unifiedChangedByDeletes += LinkPlan.changedByDeleting(identifier, from: group)
        try apply(LinkPlan.removing(identifier, from: group))
    }

    /// The unified contact `identifier` names by its own identifier, if any (not a member's).
    func unifiedGroup(_ identifier: String) throws -> LinkGroup? {
        try LinkRows.groups(db, containing: [identifier]).first { $0.identifier == identifier }
    }

    /// Writes an update through a unified contact to its members (``UnifiedUpdate``).
    mutating func updateUnified(_ update: Contact, _ group: LinkGroup, baseRevision: Int64?) throws {
        if let baseRevision, try linkChanged(group, since: baseRevision) || historyCompacted(since: baseRevision) {
            throw UnifiedUpdate.linkChangedConflict(group, update, baseRevision: baseRevision)
        }
        let loaded = try ContactLoader(keys: UnifiedContact.memberKeys(for: update.modifiedKeys)).loadOrdered(
            db, column: "id", values: group.members
        ).contacts
        let members = Dictionary(uniqueKeysWithValues: loaded.map { ($0.identifier, $0) })
        for memberUpdate in try UnifiedUpdate.route(update, through: group, members: members) {
            try updateContact(memberUpdate, baseRevision: baseRevision)
        }
    }

    /// Whether a link change (which logs an update with no keys for each member it leaves) touched the group's
    /// members after `revision`, in an earlier commit than this one: a few index seeks per member
    /// (``Migration015``), however long the history since `revision`.
    private func linkChanged(_ group: LinkGroup, since revision: Int64) throws -> Bool {
        let marks = Array(repeating: "?", count: group.members.count).joined(separator: ",")
        var arguments: [any DatabaseValueConvertible] = group.members
        arguments += [revision, seq]
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM changeEvent INDEXED BY changeEvent_linkChange
                    WHERE \(Migration015.linkChangeCondition) AND recordId IN (\(marks)) AND seq > ? AND seq <> ?)
                """, arguments: StatementArguments(arguments)) ?? false
    }

    /// Whether compaction may have deleted events after `revision`, a link change among them
    /// (``UnifiedUpdate/linkChangedConflict(_:_:baseRevision:)``): once history was compacted, events before the
    /// oldest kept one of an earlier commit (with none kept, up to the last commit) may be gone. A bound at or past
    /// the deleted ones, never before.
    private func historyCompacted(since revision: Int64) throws -> Bool {
        guard try HistoryStore.oldestPosition(db) > 0 else { return false }
        let oldestKept = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT seq FROM changeEvent WHERE seq < ? ORDER BY seq LIMIT 1"), arguments: [seq])
        let bound =
            try oldestKept.map { $0 - 1 }
            ?? Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM saveTransaction WHERE seq < ? ORDER BY seq DESC LIMIT 1"),
                arguments: [seq]) ?? 0
        return revision < bound
    }

    private func linkGroup(ofMember identifier: String) throws -> LinkGroup? {
        guard try contactRowid(identifier) != nil else {
            if try unifiedGroup(identifier) != nil {
                throw StoreError(
                    .linkInvalid, "Name a member contact, not the unified contact", affected: [identifier])
            }
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        return try LinkRows.groups(db, containing: [identifier]).first { $0.members.contains(identifier) }
    }

    private func contactRowid(_ identifier: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT rowid FROM contact WHERE id = ?"), arguments: [identifier])
    }

    private mutating func apply(_ plan: LinkPlan) throws {
        linkedNamesToRefresh.formUnion(plan.written.map(\.identifier) + plan.retired)
        for group in plan.written {
            try db.cachedStatement(sql: "DELETE FROM contactLink WHERE unifiedId = ?").execute(arguments: [
                group.identifier
            ])
            for member in group.members {
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO contactLink (contactRowid, unifiedId, preferredForName, preferredForImage)
                        SELECT rowid, ?, ?, ? FROM contact WHERE id = ?
                        """
                ).execute(arguments: [
                    group.identifier, member == group.preferredForName, member == group.preferredForImage, member,
                ])
            }
        }
        for contact in plan.unlinked {
            try db.cachedStatement(
                sql: "DELETE FROM contactLink WHERE contactRowid = (SELECT rowid FROM contact WHERE id = ?)"
            ).execute(arguments: [contact])
        }
        endedUnified += plan.retired
        for identifier in plan.retired {
            try retire(identifier, kind: .unified)
            // Unified clients drop it; individual clients ignore a delete of a record they never saw.
            try record(.deleteContact, identifier)
        }
        for contact in Set(plan.touched + plan.unlinked) {
            try db.cachedStatement(
                sql: """
                    UPDATE contact SET linkHidden = EXISTS (
                        SELECT 1 FROM contactLink WHERE contactRowid = contact.rowid AND NOT preferredForName)
                    WHERE id = ?
                    """
            ).execute(arguments: [contact])
        }
        for contact in plan.touched {
            try db.cachedStatement(sql: "UPDATE contact SET revision = ? WHERE id = ?").execute(arguments: [
                seq, contact,
            ])
            try record(.updateContact, contact, keys: [])
        }
        try recordMemberships(plan)
    }

    /// A link change moves memberships between a unified contact and its members without changing any: it logs
    /// a membership event for each group of the contacts involved, for them and for each unified contact written,
    /// which history states as it is now (``LinkPlan/membershipRecords(groupsOf:)``).
    private mutating func recordMemberships(_ plan: LinkPlan) throws {
        let contacts = Array(Set(plan.touched + plan.unlinked))
        guard !contacts.isEmpty else { return }
        var groupsOf: [String: [String]] = [:]
        for chunk in contacts.chunked(500) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, g.id FROM contact c JOIN groupMember m ON m.contactRowid = c.rowid
                    JOIN "group" g ON g.rowid = m.groupRowid
                    WHERE c.id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: StatementArguments(Array(chunk)))
            for row in rows { groupsOf[row[0], default: []].append(row[1]) }
        }
        for (record, group) in plan.membershipRecords(groupsOf: groupsOf) {
            try self.record(.addMemberToGroup, record, other: group)
        }
    }
}
