import CarnetStore
import GRDB

/// Where a unified search finds unified contacts through their other members, in name order.
///
/// Each unified contact has one row per name order holding the names of its members other than the
/// name-preferred one, under that member's rowid in the contact name index (``NameIndex``). So the rows sort
/// where the unified contact stands, their low bits are the contact that stands for it, and a search reads them
/// lazily in order beside the contact name index, however many members match. The words of several members share
/// one row: a search of several words may match words of different members, which the search checks afterwards
/// for the rows that hold more than one member's names (`members`).
///
/// A save rewrites the rows of each unified contact whose members, preferences or member names it changed, once,
/// after its operations (``SaveTransaction/refreshLinkedNames()``). A migration that gives the name index new rowids
/// (as v6 did) must refresh every unified contact too: the rows stand under the name-preferred members' rowids.
enum LinkedNameIndex {
    static func refresh(_ db: Database, _ unifiedIds: Set<String>) throws {
        for unifiedId in unifiedIds.sorted() {
            try remove(db, unifiedId)
            try write(db, unifiedId)
        }
    }

    private static func remove(_ db: Database, _ unifiedId: String) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT ftsGiven, ftsFamily, names FROM contactLinkName WHERE unifiedId = ?"),
                arguments: [unifiedId])
        else { return }
        let names: String = row[2]
        try NameIndex.delete(db, linked: true, given: row[0], family: row[1], names: names)
        try db.cachedStatement(sql: "DELETE FROM contactLinkName WHERE unifiedId = ?").execute(arguments: [unifiedId])
    }

    private static func write(_ db: Database, _ unifiedId: String) throws {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT l.contactRowid, l.preferredForName, c.ftsGiven, c.ftsFamily
                    FROM contactLink l JOIN contact c ON c.rowid = l.contactRowid WHERE l.unifiedId = ?
                    """), arguments: [unifiedId])
        guard let standing = rows.first(where: { $0[1] as Bool }) else { return }
        let others = rows.filter { !($0[1] as Bool) }.map { $0[0] as Int64 }
        let members = try ContactLoader(keys: .names).loadOrdered(db, column: "rowid", values: others).contacts
        let named = members.map(ContactIndexing.names).filter { !$0.isEmpty }
        guard !named.isEmpty else { return }
        let names = named.joined(separator: " ")
        let (ftsGiven, ftsFamily): (Int64, Int64) = (standing[2], standing[3])
        try NameIndex.insert(db, linked: true, given: ftsGiven, family: ftsFamily, names: names)
        try db.cachedStatement(
            sql: "INSERT INTO contactLinkName (unifiedId, ftsGiven, ftsFamily, names, members) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [unifiedId, ftsGiven, ftsFamily, names, named.count])
    }
}
