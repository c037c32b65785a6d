import GRDB

extension SaveTransaction {
    mutating func deleteContact(_ identifier: String) throws {
        guard let rowid = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT rowid FROM contact WHERE id = ?"), arguments: [identifier])
        else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        try db.cachedStatement(sql: "DELETE FROM contactName WHERE rowid = ?").execute(arguments: [rowid])
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
