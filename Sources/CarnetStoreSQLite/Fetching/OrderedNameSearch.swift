import CarnetStore
import GRDB

/// A name search in a name order, read from the index whose rowids follow that order (``NameIndex``): the
/// matches come out nearly sorted, so a page costs about its own size, whether ten contacts match or half of
/// them. Applies when the predicate is a name (optionally within a container); other predicates take the
/// general path.
struct OrderedNameSearch {
    let request: ContactFetchRequest
    let order: ContactSortOrder
    let words: [String]

    init?(_ request: ContactFetchRequest, order: ContactSortOrder) {
        let predicate = request.predicate
        guard order == .givenName || order == .familyName, let name = predicate.matchingName,
            predicate.matchingEmailAddress == nil, predicate.matchingPhoneNumber == nil, predicate.identifiers == nil,
            predicate.groupIdentifier == nil, predicate.linkedMembers == nil
        else { return nil }
        let words = TextFolding.words(name)
        guard !words.isEmpty else { return nil }
        self.request = request
        self.order = order
        self.words = words
    }

    private struct Candidate {
        let ftsRowid: Int64
        let rowid: Int64
        let identifier: String
        let sortKey: String

        func isBefore(_ other: Candidate) -> Bool {
            sortKey < other.sortKey || (sortKey == other.sortKey && identifier < other.identifier)
        }
    }

    /// Reads candidates in index order until the page is certain: `count + 1` of them, plus every candidate sharing
    /// a bucket with the last, since a bucket's rows are in exact order only once sorted. `nil` when the scan
    /// grows past its budget (a container filter that rejects most matches), for the general path to take over.
    func run(_ db: Database, count: Int, cursor: ContactCursor?, backward: Bool) throws -> ContactPage? {
        let index: NameIndex.Order = order == .givenName ? .given : .family
        var containerRowid: Int64?
        if let container = request.predicate.containerIdentifier {
            guard
                let found = try Int64.fetchOne(
                    db, sql: "SELECT rowid FROM container WHERE id = ?", arguments: [container])
            else {
                return ContactPage(
                    contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0)
            }
            containerRowid = found
        }
        guard let match = try NameIndex.match(db, index, words) else {
            return ContactPage(
                contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false,
                totalCount: request.includeTotalCount ? 0 : nil)
        }
        let bucketSize: Int64 = 1 << NameIndex.counterBits
        let cursorBucket = cursor.map { NameIndex.bucket($0.sortKey) >> NameIndex.counterBits }
        var bound: Int64 =
            cursor.map { NameIndex.bucket($0.sortKey) + (backward ? bucketSize - 1 : 0) } ?? (backward ? .max : 0)
        var inclusive = true
        // The scan reads index rowids only (the contact is the rowid's low bits); names and identifiers are read
        // afterwards, for the few rows kept. Rows of the cursor's own bucket are kept but not counted: which of them
        // come after the cursor is only known once their keys are read.
        var kept: [(ftsRowid: Int64, rowid: Int64)] = []
        var counted = 0
        var boundaryBucket: Int64?
        // Rows are read lazily and the scan stops where the last bucket it needs ends, so a batch's LIMIT only says
        // when to run the query again: rarely, since each run of an OR of many terms ("weiß": 46 whole terms) costs
        // its setup again.
        let batch = max(count + 33, 1024)
        var scanned = 0
        let join =
            containerRowid == nil
            ? ""
            : "JOIN contact c ON c.rowid = f.rowid & \(NameIndex.contactMask) AND c.containerRowid = \(containerRowid!)"
        scan: while true {
            let op = backward ? (inclusive ? "<=" : "<") : (inclusive ? ">=" : ">")
            let statement = try db.cachedStatement(
                sql: """
                    SELECT f.rowid FROM \(index.table) f \(join)
                    WHERE \(index.table) MATCH ? AND f.rowid \(op) ? ORDER BY f.rowid \(backward ? "DESC" : "ASC") LIMIT ?
                    """)
            let rows = try SQLiteRows(statement, arguments: [match, bound, batch])
            var fetched = 0
            while let columns = try rows.next() {
                fetched += 1
                let ftsRowid = columns.int64(0)
                bound = ftsRowid
                let bucket = ftsRowid >> NameIndex.counterBits
                if let boundaryBucket, bucket != boundaryBucket { break scan }
                kept.append((ftsRowid, ftsRowid & NameIndex.contactMask))
                if bucket != cursorBucket {
                    counted += 1
                    if counted == count + 1 { boundaryBucket = bucket }
                }
            }
            inclusive = false
            scanned += fetched
            if fetched < batch { break }
            if scanned > 20_000 && boundaryBucket == nil { return nil }
        }
        let anchor = cursor.map {
            Candidate(ftsRowid: 0, rowid: $0.rowid, identifier: $0.identifier, sortKey: $0.sortKey)
        }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(min(kept.count, 4 * count + 64))
        // A bucket is put in exact order by reading its rows' keys. A large one (a common family name of six
        // letters and the separator, every given name: "Müller"; the first seven letters of a longer one: "Schmidt")
        // is read forward through the contacts' sort-key index, which is in that order, from its start (or the
        // cursor) until enough of its matches are found: a few dozen index rows instead of a lookup per match. Small
        // buckets, and every bucket of a backward page, are read by rowid.
        var byRowid: [Int64] = []
        var start = kept.startIndex
        while start < kept.endIndex {
            let bucket = kept[start].ftsRowid >> NameIndex.counterBits
            var end = start + 1
            while end < kept.endIndex && kept[end].ftsRowid >> NameIndex.counterBits == bucket { end += 1 }
            if !backward && end - start > Self.largeBucket {
                candidates += try walk(
                    db, index, bucket: bucket, rowids: Set(kept[start..<end].lazy.map(\.rowid)),
                    after: bucket == cursorBucket ? anchor : nil, needed: count + 1)
            } else {
                byRowid += kept[start..<end].lazy.map(\.rowid)
            }
            start = end
        }
        for chunk in byRowid.chunked(StoreLimits.pageSize) {
            let list = InList(chunk)
            let statement = try db.cachedStatement(
                sql: "SELECT rowid, id, \(index.sortColumn) FROM contact WHERE rowid IN (\(list.placeholders))")
            let rows = try SQLiteRows(statement, arguments: list.arguments)
            while let columns = try rows.next() {
                candidates.append(
                    Candidate(
                        ftsRowid: 0, rowid: columns.int64(0), identifier: columns.string(1), sortKey: columns.string(2))
                )
            }
        }
        if let anchor {
            candidates.removeAll { backward ? !$0.isBefore(anchor) : !anchor.isBefore($0) }
        }
        candidates.sort { backward ? $1.isBefore($0) : $0.isBefore($1) }
        let hasMore = candidates.count > count
        var page = Array(candidates.prefix(count))
        if backward { page.reverse() }
        // In the page's order, without the contacts deleted since the index was read.
        let loaded = try ContactLoader(keys: request.keysToFetch).loadOrdered(
            db, column: "rowid", values: page.map(\.rowid))
        let found = Set(loaded.rowids)
        let present = loaded.rowids.count == page.count ? page : page.filter { found.contains($0.rowid) }
        var total: Int?
        if request.includeTotalCount {
            total = try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM \(index.table) f JOIN contact c ON c.rowid = f.rowid & \(NameIndex.contactMask)
                        WHERE \(index.table) MATCH ? AND (? IS NULL OR c.containerRowid = ?)
                        """), arguments: [match, containerRowid, containerRowid])
        }
        return ContactPage(
            contacts: loaded.contacts,
            positions: present.map {
                ContactCursor(order: order, rowid: $0.rowid, identifier: $0.identifier, sortKey: $0.sortKey)
            },
            hasNextPage: backward ? cursor != nil : hasMore, hasPreviousPage: backward ? hasMore : cursor != nil,
            totalCount: total)
    }

    /// Buckets with more matches than this are read through the sort-key index (forward pages).
    static let largeBucket = 64

    /// The first `needed` of a bucket's matches (`rowids`) after `anchor`, in exact (sort key, identifier) order,
    /// read from the contacts' index on the order's sort key, from the bucket's lowest possible key (or the
    /// anchor's) until the bucket ends or enough are found.
    private func walk(
        _ db: Database, _ index: NameIndex.Order, bucket: Int64, rowids: Set<Int64>, after anchor: Candidate?,
        needed: Int
    ) throws -> [Candidate] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT rowid, id, \(index.sortColumn) FROM contact WHERE \(index.sortColumn) >= ?
                ORDER BY \(index.sortColumn), id
                """)
        let rows = try SQLiteRows(statement, arguments: [anchor?.sortKey ?? NameIndex.lowestKey(bucket: bucket)])
        var found: [Candidate] = []
        while let columns = try rows.next() {
            let sortKey = columns.string(2)
            let rowBucket = NameIndex.bucket(sortKey) >> NameIndex.counterBits
            if rowBucket < bucket { continue }
            if rowBucket > bucket { break }
            let rowid = columns.int64(0)
            guard rowids.contains(rowid) else { continue }
            let candidate = Candidate(ftsRowid: 0, rowid: rowid, identifier: columns.string(1), sortKey: sortKey)
            if let anchor, !anchor.isBefore(candidate) { continue }
            found.append(candidate)
            if found.count == needed { break }
        }
        return found
    }
}
