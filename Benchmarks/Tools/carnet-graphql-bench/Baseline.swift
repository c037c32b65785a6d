import CarnetGraphQL
import CarnetStore
import GRDB

/// The same reads written by hand: raw SQL through GRDB, JSON written straight from the rows. The floor.
struct Baseline {
    let raw: DatabasePool

    static func label(_ label: String?) -> String? { label.map { ContactLabel.shortName(of: $0) ?? $0 } }

    /// `{"data":{"contact":{...}}}` for the 8-field contact query.
    func contact(_ id: String) throws -> [UInt8] {
        try raw.read { db in
            var w = JSONWriter()
            w.raw(Array(#"{"data":{"contact":"#.utf8))
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql:
                            "SELECT rowid, id, givenName, familyName, organizationName, jobTitle, birthday FROM contact WHERE id = ?"
                    ),
                    arguments: [id])
            else {
                w.raw(Array("null}}".utf8))
                return w.bytes
            }
            w.beginObject()
            w.key("id")
            w.string(row[1])
            w.key("givenName")
            w.string(row[2])
            w.key("familyName")
            w.string(row[3])
            w.key("organizationName")
            w.string(row[4])
            w.key("jobTitle")
            w.string(row[5])
            w.key("birthday")
            if let birthday = row[6] as String? {
                let parts = birthday.split(separator: "|", omittingEmptySubsequences: false)
                w.beginObject()
                w.key("year")
                if let year = Int(parts[2]) { w.int(year) } else { w.null() }
                w.key("month")
                w.int(Int(parts[3]) ?? 0)
                w.key("day")
                w.int(Int(parts[4]) ?? 0)
                w.endObject()
            } else {
                w.null()
            }
            let values = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT kind, label, value FROM labeledValue WHERE contactRowid = ? AND kind IN (1, 2) ORDER BY kind, position"
                ),
                arguments: [row[0] as Int64])
            for (kind, name) in [(1, "phoneNumbers"), (2, "emailAddresses")] {
                w.key(name)
                w.beginArray()
                for value in values where value[0] as Int == kind {
                    w.comma()
                    w.beginObject()
                    w.key("label")
                    if let label = Self.label(value[1]) { w.string(label) } else { w.null() }
                    w.key("value")
                    w.string(value[2])
                    w.endObject()
                }
                w.endArray()
            }
            w.endObject()
            w.raw(Array("}}".utf8))
            return w.bytes
        }
    }

    /// The page query: id, names, emails and phones of the first `count` contacts by family name.
    func page(_ count: Int) throws -> [UInt8] {
        try raw.read { db in
            let contacts = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT rowid, id, givenName, familyName FROM contact ORDER BY sortFamily, id LIMIT ?"),
                arguments: [count])
            return try writeNodes(db, contacts, key: "contacts", withValues: true)
        }
    }

    /// A name search: the first 50 matches by family name.
    func search(_ words: String) throws -> [UInt8] {
        try raw.read { db in
            let contacts = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.rowid, c.id, c.givenName, c.familyName FROM contactNameFamily f JOIN contact c ON c.rowid = f.rowid & 16777215
                        WHERE contactNameFamily MATCH ? ORDER BY f.rowid LIMIT 50
                        """), arguments: [words])
            return try writeNodes(db, contacts, key: "contacts", withValues: false)
        }
    }

    private func writeNodes(_ db: Database, _ contacts: [Row], key: String, withValues: Bool) throws -> [UInt8] {
        var values: [Int64: [(Int, String)]] = [:]
        if withValues, !contacts.isEmpty {
            let rowids = contacts.map { $0[0] as Int64 }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT contactRowid, kind, value FROM labeledValue WHERE contactRowid IN (\(databaseQuestionMarks(count: rowids.count)))
                    AND kind IN (1, 2) ORDER BY contactRowid, kind, position
                    """, arguments: StatementArguments(rowids))
            while let row = try rows.next() { values[row[0], default: []].append((row[1], row[2])) }
        }
        var w = JSONWriter(capacity: contacts.count * 200)
        w.raw(Array(#"{"data":{"\#(key)":{"nodes":"#.utf8))
        w.beginArray()
        for contact in contacts {
            w.comma()
            w.beginObject()
            w.key("id")
            w.string(contact[1])
            w.key("givenName")
            w.string(contact[2])
            w.key("familyName")
            w.string(contact[3])
            if withValues {
                let own = values[contact[0]] ?? []
                for (kind, name) in [(2, "emailAddresses"), (1, "phoneNumbers")] {
                    w.key(name)
                    w.beginArray()
                    for (valueKind, value) in own where valueKind == kind {
                        w.comma()
                        w.beginObject()
                        w.key("value")
                        w.string(value)
                        w.endObject()
                    }
                    w.endArray()
                }
            }
            w.endObject()
        }
        w.endArray()
        w.raw(Array("}}}".utf8))
        return w.bytes
    }

    /// 1,000 raw history events after a position, with the added contacts' names.
    func history(after position: Int64) throws -> [UInt8] {
        try raw.read { db in
            let events = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT kind, recordId FROM changeEvent WHERE position > ? ORDER BY position LIMIT 1000"),
                arguments: [position])
            let ids = events.compactMap { $0[0] as Int == 1 ? $0[1] as String : nil }
            var names: [String: (String, String)] = [:]
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                for row in try Row.fetchAll(
                    db,
                    sql:
                        "SELECT id, givenName, familyName FROM contact WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(chunk))
                { names[row[0]] = (row[1], row[2]) }
            }
            var w = JSONWriter(capacity: events.count * 120)
            w.raw(Array(#"{"data":{"changeHistory":{"events":"#.utf8))
            w.beginArray()
            for event in events {
                w.comma()
                w.beginObject()
                if event[0] as Int == 1, let (given, family) = names[event[1]] {
                    w.key("__typename")
                    w.string("AddContactEvent")
                    w.key("contactId")
                    w.string(event[1])
                    w.key("contact")
                    w.beginObject()
                    w.key("givenName")
                    w.string(given)
                    w.key("familyName")
                    w.string(family)
                    w.endObject()
                } else {
                    w.key("__typename")
                    w.string("AddMemberToGroupEvent")
                }
                w.endObject()
            }
            w.endArray()
            w.raw(Array("}}}".utf8))
            return w.bytes
        }
    }
}
