import CarnetStore
import GRDB

extension ContactLoader {
    /// Fills in labeled values and images for contacts already decoded, with one query per kind of data.
    /// - Parameter contiguous: `rowids` ascend and every contact between the first and the last is among them (a
    ///   full sync's range): their values are then read as one range of the index, not a seek per contact.
    func loadRelated(_ db: Database, rowids: [Int64], into contacts: inout [Contact], contiguous: Bool = false)
        throws
    {
        let kinds = MultiValueKind.allCases.filter { keys.contains($0.key) }
        let wantsImage = keys.contains(.imageData)
        let wantsThumbnail = keys.contains(.thumbnailImageData)
        // Names only, the usual history and list selection: nothing to read, and no rowid map to build.
        guard let first = rowids.first, let last = rowids.last, !kinds.isEmpty || wantsImage || wantsThumbnail
        else { return }
        var indexByRowid: [Int64: Int] = [:]
        indexByRowid.reserveCapacity(rowids.count)
        for (index, rowid) in rowids.enumerated() { indexByRowid[rowid] = index }
        let read = RelatedRead(
            kinds: kinds, wantsImage: wantsImage, wantsThumbnail: wantsThumbnail, indexByRowid: indexByRowid)
        if contiguous {
            try read.run(db, condition: "BETWEEN ? AND ?", arguments: [first, last], into: &contacts)
            return
        }
        for chunk in rowids.chunked(StoreLimits.pageSize) {
            let list = InList(chunk)
            try read.run(db, condition: "IN (\(list.placeholders))", arguments: list.arguments, into: &contacts)
        }
    }
}

/// One read of labeled values and images for the contacts whose rowid meets a condition.
private struct RelatedRead {
    let kinds: [MultiValueKind]
    let wantsImage: Bool
    let wantsThumbnail: Bool
    let indexByRowid: [Int64: Int]

    /// The kinds as a filter, not an index condition (`+kind`): with `kind IN (…)` in the index, SQLite seeks
    /// once per contact and kind (eight times per contact for every key), where one seek per contact and a
    /// step over its few values costs less. No filter at all when every kind is wanted.
    var kindFilter: String {
        kinds.count == MultiValueKind.allCases.count
            ? "" : " AND +kind IN (\(kinds.map { String($0.rawValue) }.joined(separator: ",")))"
    }

    func run(_ db: Database, condition: String, arguments: StatementArguments, into contacts: inout [Contact]) throws {
        if !kinds.isEmpty {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT contactRowid, kind, id, label, value FROM labeledValue
                    WHERE contactRowid \(condition)\(kindFilter) ORDER BY contactRowid, kind, position
                    """)
            let rows = try SQLiteRows(statement, arguments: arguments)
            // Rows come grouped by contact: remember the last one to skip most dictionary lookups.
            var lastRowid: Int64 = -1
            var index = 0
            while let columns = try rows.next() {
                let rowid = columns.int64(0)
                if rowid != lastRowid {
                    guard let found = indexByRowid[rowid] else { continue }
                    index = found
                    lastRowid = rowid
                }
                guard let kind = MultiValueKind(rawValue: columns.int(1)) else { continue }
                contacts[index].appendEncoded(
                    kind, identifier: columns.string(2), label: columns.optionalString(3), value: columns.string(4))
            }
        }
        guard wantsImage || wantsThumbnail else { return }
        let columns = [wantsImage ? "imageData" : "NULL", wantsThumbnail ? "thumbnailImageData" : "NULL"]
        let statement = try db.cachedStatement(
            sql:
                "SELECT contactRowid, \(columns.joined(separator: ", ")) FROM contactImage WHERE contactRowid \(condition)"
        )
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() {
            guard let index = indexByRowid[row[0]] else { continue }
            if wantsImage { contacts[index].values.imageData = row[1] }
            if wantsThumbnail { contacts[index].values.thumbnailImageData = row[2] }
        }
    }
}
