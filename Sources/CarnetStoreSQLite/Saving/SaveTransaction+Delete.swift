import CarnetStore
import GRDB

extension SaveTransaction {
    mutating func deleteContact(_ identifier: String) throws {
        guard let stored = try StoredContact.load(db, identifier: identifier) else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        try unlinkBeforeDelete(identifier)
        let rowid = stored.rowid
        let names = ContactIndexing.names(stored.contact)
        try NameIndex.delete(db, given: stored.ftsGiven, family: stored.ftsFamily, names: names)
        // Memberships, labeled values, images and key revisions go with the row (ON DELETE CASCADE).
        try db.cachedStatement(sql: "DELETE FROM contact WHERE rowid = ?").execute(arguments: [rowid])
        contactDelta -= 1
        try retire(identifier, kind: .contact)
        try record(.deleteContact, identifier)
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
