import CarnetStore
import GRDB

extension SaveTransaction {
    struct GroupRow {
        var rowid: Int64
        var containerRowid: Int64
        var name: String
        var createdRevision: Int64
        var nameRevision: Int64
    }

    func groupRow(_ identifier: String) throws -> GroupRow? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT rowid, containerRowid, name, createdRevision, nameRevision FROM \"group\" WHERE id = ?"),
            arguments: [identifier]
        ).map {
            GroupRow(rowid: $0[0], containerRowid: $0[1], name: $0[2], createdRevision: $0[3], nameRevision: $0[4])
        }
    }

    /// Refuses the save when a container bears a name the request says it must not (``GroupNameAbsence``).
    /// Found by the container's sort-name index: by name alone each check read every group of the container, and
    /// an import creating 24,000 groups took 30 s (an outside tester's find).
    mutating func checkAbsent(_ absences: [GroupNameAbsence]) throws {
        for absence in absences {
            let container = try containerRowid(absence.containerIdentifier)
            let found = try Bool.fetchOne(
                db.cachedStatement(
                    sql:
                        #"SELECT EXISTS (SELECT 1 FROM "group" WHERE containerRowid = ? AND sortName = ? AND name = ?)"#
                ),
                arguments: [container.rowid, GroupIndexing.sortName(absence.name), absence.name])
            if found == true { throw absence.conflict(container: container.identifier) }
        }
    }

    mutating func addGroup(_ group: Group, containerIdentifier: String?) throws {
        try ensureUnused(group.identifier)
        let container = try containerRowid(containerIdentifier)
        try db.cachedStatement(
            sql: """
                INSERT INTO "group" (id, containerRowid, name, sortName, createdRevision, nameRevision, revision,
                                     createdAt, modifiedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            group.identifier, container.rowid, group.name, GroupIndexing.sortName(group.name), seq, seq, seq, now, now,
        ])
        try record(.addGroup, group.identifier, other: container.identifier)
    }

    mutating func updateGroup(_ group: Group, baseRevision: Int64?) throws {
        guard let stored = try groupRow(group.identifier) else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [group.identifier])
        }
        // By bytes: an update to another spelling of the same name (NFC, NFD) is a rename, stored.
        guard !stored.name.hasSameBytes(as: group.name) else { return }
        if let base = baseRevision, stored.nameRevision > base {
            throw StoreError(
                .conflict, "The group's name changed since revision \(base)", affected: [group.identifier],
                keyPaths: ["name"])
        }
        try db.cachedStatement(
            sql:
                "UPDATE \"group\" SET name = ?, sortName = ?, nameRevision = ?, revision = ?, modifiedAt = ? WHERE rowid = ?"
        ).execute(arguments: [group.name, GroupIndexing.sortName(group.name), seq, seq, now, stored.rowid])
        try record(.updateGroup, group.identifier)
    }

    /// Adds or removes a member; a no-op (no event, no new revision) when the membership is already as asked.
    mutating func changeMembership(contact: String, group: String, add: Bool) throws {
        guard let groupRow = try groupRow(group) else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [group])
        }
        guard
            let member = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT rowid, containerRowid FROM contact WHERE id = ?"), arguments: [contact])
        else {
            throw try unifiedGroup(contact) != nil
                ? StoreError.unifiedMembership(contact)
                : StoreError(.recordDoesNotExist, "No such contact", affected: [contact])
        }
        let contactRowid: Int64 = member[0]
        if add {
            guard member[1] as Int64 == groupRow.containerRowid else {
                throw StoreError(
                    .containmentScope, "A group's members must come from the group's container",
                    affected: [contact, group])
            }
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupMember (groupRowid, contactRowid) VALUES (?, ?)")
                .execute(arguments: [groupRow.rowid, contactRowid])
        } else {
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupRowid = ? AND contactRowid = ?")
                .execute(arguments: [groupRow.rowid, contactRowid])
        }
        guard db.changesCount > 0 else { return }
        try reviseGroup(groupRow.rowid)
        try record(add ? .addMemberToGroup : .removeMemberFromGroup, contact, other: group)
        // A linked contact's membership is its unified contact's too: logged for that as well, so that a unified
        // page states it even when the member has left the unified contact (deleted or unlinked) by the time the
        // page is read. The page restates the kind from the unified contact's groups; should the unified contact
        // be gone by then, the event passes as it is, and a removal is what holds.
        if let unified = try String.fetchOne(
            db.cachedStatement(sql: "SELECT unifiedId FROM contactLink WHERE contactRowid = ?"),
            arguments: [contactRowid])
        {
            try record(.removeMemberFromGroup, unified, other: group)
        }
    }

    /// Gives the group this commit's revision, once per group and commit: an import puts a thousand contacts into
    /// a few groups in one.
    mutating func reviseGroup(_ rowid: Int64) throws {
        guard revisedGroups.insert(rowid).inserted else { return }
        try db.cachedStatement(sql: "UPDATE \"group\" SET revision = ?, modifiedAt = ? WHERE rowid = ?")
            .execute(arguments: [seq, now, rowid])
    }
}
