import CarnetGraphQL
import CarnetStore
import GRDB

extension Baseline {
    static let stringColumns = [
        "namePrefix", "givenName", "middleName", "familyName", "previousFamilyName", "nameSuffix", "nickname",
        "phoneticGivenName", "phoneticMiddleName", "phoneticFamilyName", "phoneticOrganizationName",
        "organizationName", "departmentName", "jobTitle", "note",
    ]
    /// The labeled-value kinds in the query's order, with each one's structured fields (none for a string).
    static let kinds: [(kind: Int, name: String, fields: [String])] = [
        (1, "phoneNumbers", []), (2, "emailAddresses", []), (4, "urlAddresses", []),
        (
            3, "postalAddresses",
            [
                "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode", "country",
                "isoCountryCode",
            ]
        ),
        (5, "dates", ["date"]), (6, "contactRelations", ["name"]),
        (7, "socialProfiles", ["urlString", "username", "userIdentifier", "service"]),
        (8, "instantMessageAddresses", ["username", "service"]),
    ]

    /// A new device's first page by hand: the first `limit` contacts with every key, read by rowid range, and
    /// their labeled values read by the same range through the (contact, kind, position) index.
    func fullSync(limit: Int) throws -> [UInt8] {
        try raw.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, id, contactType, \(Self.stringColumns.joined(separator: ", ")), birthday,
                        nonGregorianBirthday, hasImage FROM contact ORDER BY rowid LIMIT ?
                        """), arguments: [limit])
            guard let first = rows.first?[0] as Int64?, let last = rows.last?[0] as Int64? else { return [] }
            // Both lists come in rowid order: each contact's values are the run that follows the previous one's.
            let values = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT contactRowid, kind, id, label, value FROM labeledValue
                        WHERE contactRowid BETWEEN ? AND ? AND kind <= 8 ORDER BY contactRowid, kind, position
                        """), arguments: [first, last])
            var next = 0
            var w = JSONWriter(capacity: rows.count * 1400)
            w.raw(Array(#"{"data":{"changeHistory":{"token":"","hasMore":false,"events":"#.utf8))
            w.beginArray()
            for row in rows {
                w.comma()
                w.beginObject()
                w.key("__typename")
                w.string("AddContactEvent")
                w.key("contact")
                let rowid: Int64 = row[0]
                let start = next
                while next < values.count, values[next][0] as Int64 == rowid { next += 1 }
                writeContact(&w, row, values[start..<next])
                w.endObject()
            }
            w.endArray()
            w.raw(Array("}}}".utf8))
            return w.bytes
        }
    }

    private func writeContact(_ w: inout JSONWriter, _ row: Row, _ values: ArraySlice<Row>) {
        w.beginObject()
        w.key("id")
        w.string(row[1])
        w.key("contactType")
        w.string(row[2] as Int == 0 ? "PERSON" : "ORGANIZATION")
        for (offset, name) in Self.stringColumns.enumerated() {
            w.key(name)
            w.string(row[3 + offset])
        }
        w.key("birthday")
        Self.writeDate(&w, row[18])
        w.key("nonGregorianBirthday")
        Self.writeDate(&w, row[19])
        w.key("imageData")
        w.null()
        w.key("thumbnailImageData")
        w.null()
        w.key("imageDataAvailable")
        w.bool(row[20] as Int != 0)
        for (kind, name, fields) in Self.kinds {
            w.key(name)
            w.beginArray()
            for value in values where value[1] as Int == kind {
                w.comma()
                w.beginObject()
                w.key("identifier")
                w.string(value[2])
                w.key("label")
                if let label = Self.label(value[3]) { w.string(label) } else { w.null() }
                w.key("value")
                let text: String = value[4]
                switch fields.count {
                case 0: w.string(text)
                case 1 where fields[0] == "date": Self.writeDate(&w, text)
                default:
                    let parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false)
                    w.beginObject()
                    for (index, field) in fields.enumerated() {
                        w.key(field)
                        w.string(index < parts.count ? String(parts[index]) : "")
                    }
                    w.endObject()
                }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }

    private static func writeDate(_ w: inout JSONWriter, _ text: String?) {
        guard let text else { return w.null() }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return w.null() }
        w.beginObject()
        w.key("calendar")
        w.string(String(parts[0]))
        w.key("era")
        if let era = Int(parts[1]) { w.int(era) } else { w.null() }
        w.key("year")
        if let year = Int(parts[2]) { w.int(year) } else { w.null() }
        w.key("month")
        w.int(Int(parts[3]) ?? 0)
        w.key("day")
        w.int(Int(parts[4]) ?? 0)
        w.key("isLeapMonth")
        w.bool(parts[5] == "1")
        w.endObject()
    }
}
