import GRDB

extension SaveTransaction {
    mutating func deleteContact(_ identifier: String) throws {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT rowid, ftsGiven, ftsFamily FROM contact WHERE id = ?"), arguments: [identifier])
        else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        let rowid: Int64 = row[0]
        try NameIndex.delete(db, .given, rowid: row[1])
        try NameIndex.delete(db, .family, rowid: row[2])
        // Memberships, labeled values, images and key revisions go with the row (ON DELETE CASCADE).
        try db.cachedStatement(sql: "DELETE FROM contact WHERE rowid = ?").execute(arguments: [rowid])
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
