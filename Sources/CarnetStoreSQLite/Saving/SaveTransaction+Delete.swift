import CarnetStore
import GRDB

extension SaveTransaction {
    mutating func deleteContact(_ identifier: String) throws {
        guard let stored = try StoredContact.load(db, identifier: identifier) else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        let groups = try groupsOf(stored.rowid)
        try unlinkBeforeDelete(identifier)
        let rowid = stored.rowid
        let names = ContactIndexing.names(stored.contact)
        try NameIndex.delete(db, given: stored.ftsGiven, family: stored.ftsFamily, names: names)
        // Memberships, labeled values, images and key revisions go with the row (ON DELETE CASCADE).
        try db.cachedStatement(sql: "DELETE FROM contact WHERE rowid = ?").execute(arguments: [rowid])
        contactDelta -= 1
        try retire(identifier, kind: .contact)
        try record(.deleteContact, identifier)
        try revise(left: groups)
    }

    /// The groups (rowid, identifier) the contact is in, in their creation order.
    private func groupsOf(_ contactRowid: Int64) throws -> [(Int64, String)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT g.rowid, g.id FROM groupMember m JOIN "group" g ON g.rowid = m.groupRowid
                    WHERE m.contactRowid = ? ORDER BY g.rowid
                    """), arguments: [contactRowid]
        ).map { ($0[0], $0[1]) }
    }

    /// Groups that lost a member with a deleted contact: each one's revision moves, once in the commit, and the
    /// history has an update of each after the first such delete, which carries its new member count. The
    /// memberships go with the contact's row (a page drops membership events of deleted contacts). Before, the
    /// groups changed with neither, and a replica that keeps groups from their events held a stale revision and
    /// count (an outside tester's find).
    private mutating func revise(left groups: [(rowid: Int64, id: String)]) throws {
        for group in groups where groupsLeft.insert(group.rowid).inserted {
            groupsLeftIdentifiers.append(group.id)
            try reviseGroup(group.rowid)
            try record(.updateGroup, group.id)
        }
    }

    mutating func deleteGroup(_ identifier: String) throws {
        guard let group = try groupRow(identifier) else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier])
        }
        try db.cachedStatement(sql: "DELETE FROM \"group\" WHERE rowid = ?").execute(arguments: [group.rowid])
        try retire(identifier, kind: .group)
        try record(.deleteGroup, identifier)
    }
}
