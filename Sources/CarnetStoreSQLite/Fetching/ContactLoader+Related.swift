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
            try read.run(db, .range(first, last), into: &contacts)
            return
        }
        for chunk in rowids.chunked(StoreLimits.pageSize) { try read.run(db, .list(chunk), into: &contacts) }
    }
}

/// Which contacts a ``RelatedRead`` reads for: a range of rowids, or a list of them.
private enum RelatedRowids {
    case range(Int64, Int64)
    case list(ArraySlice<Int64>)

    var condition: String {
        switch self {
        case .range: "BETWEEN ? AND ?"
        case .list(let rowids): "IN (\(InList.placeholders(rowids.count)))"
        }
    }

    /// Bound straight through SQLite: building GRDB's arguments for a page's rowids cost as much as the read.
    func bind(_ statement: Statement) {
        var binder = SQLiteBinder(statement)
        switch self {
        case .range(let first, let last):
            binder.int64(first)
            binder.int64(last)
        case .list(let rowids): InList.bind(rowids, to: &binder)
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

    func run(_ db: Database, _ rowids: RelatedRowids, into contacts: inout [Contact]) throws {
        let condition = rowids.condition
        // Read once: a task-local lookup per value would cost more than the check.
        let allowance = ReadAllowance.current
        if !kinds.isEmpty {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT contactRowid, kind, id, label, value FROM labeledValue
                    WHERE contactRowid \(condition)\(kindFilter) ORDER BY contactRowid, kind, position
                    """)
            rowids.bind(statement)
            let rows = SQLiteSteppedRows(statement.sqliteStatement)
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
                let value = columns.string(4)
                try allowance?.charge(value.utf8.count)
                contacts[index].appendEncoded(
                    kind, identifier: columns.string(2), label: columns.optionalString(3), value: value)
            }
        }
        guard wantsImage || wantsThumbnail else { return }
        let columns = [wantsImage ? "imageData" : "NULL", wantsThumbnail ? "thumbnailImageData" : "NULL"]
        let statement = try db.cachedStatement(
            sql:
                "SELECT contactRowid, \(columns.joined(separator: ", ")) FROM contactImage WHERE contactRowid \(condition)"
        )
        rowids.bind(statement)
        let rows = SQLiteSteppedRows(statement.sqliteStatement)
        while let columns = try rows.next() {
            guard let index = indexByRowid[columns.int64(0)] else { continue }
            let (image, thumbnail) = (
                wantsImage ? columns.optionalData(1) : nil, wantsThumbnail ? columns.optionalData(2) : nil
            )
            try allowance?.charge((image?.count ?? 0) + (thumbnail?.count ?? 0))
            if wantsImage { contacts[index].values.imageData = image }
            if wantsThumbnail { contacts[index].values.thumbnailImageData = thumbnail }
        }
    }
}
