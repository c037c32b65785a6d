import CarnetStore
import GRDB

/// A name search in a name order, read from the index whose rowids follow that order (``NameIndex``): the
/// matches come out nearly sorted, so a page costs about its own size, whether ten contacts match or half of
/// them. Applies when the predicate is a name (optionally within a container); other predicates take the
/// general path.
struct OrderedNameSearch {
    /// Which rows a search reads, for unified fetches (``UnifiedFetch``) too.
    enum Source: Equatable {
        /// Every contact that matches.
        case contacts
        /// The contacts that match and stand for themselves or their unified contact (`linkedMembers: .excluded`):
        /// the contact name index, less the other members of unified contacts.
        case standing
        /// The name-preferred members of unified contacts whose other members match
        /// (`.standingForOthersMatching`): the unified contacts' name index (``LinkedNameIndex``).
        case linked
        /// Both of the above in one pass, merged in order: a unified search's page (``init(unified:order:)``).
        case unified
    }

    let request: ContactFetchRequest
    let order: ContactSortOrder
    let words: [String]
    private(set) var source: Source
    /// `false` leaves the page's labeled values and images out (``ContactFetch/readsRelated``).
    var readsRelated = true

    init?(_ request: ContactFetchRequest, order: ContactSortOrder) {
        var predicate = request.predicate
        var source = Source.contacts
        switch predicate.linkedMembers {
        case nil: break
        case .excluded?: source = .standing
        case .standingForOthersMatching(let inner)?:
            // The unified contacts' rows hold names only: a filter on the members' containers reads them one by one.
            var outer = predicate
            outer.linkedMembers = nil
            guard outer == ContactPredicate(), inner.linkedMembers == nil, inner.containerIdentifier == nil
            else { return nil }
            predicate = inner
            source = .linked
        }
        // A total of the unified kinds is counted by the unified fetch itself.
        guard source == .contacts || !request.includeTotalCount else { return nil }
        guard order == .givenName || order == .familyName, let name = predicate.matchingName,
            predicate.matchingEmailAddress == nil, predicate.matchingPhoneNumber == nil, predicate.identifiers == nil,
            predicate.groupIdentifier == nil
        else { return nil }
        let words = TextFolding.queryWords(name)
        guard !words.isEmpty else { return nil }
        self.request = request
        self.order = order
        self.words = words
        self.source = source
    }

    /// A unified name search (`unifyResults`): the contacts that stand for themselves or their unified contact and
    /// match, or whose unified contact has another member that matches. Not for a container filter (the unified
    /// contacts' rows hold names only) or a total count.
    init?(unified request: ContactFetchRequest, order: ContactSortOrder) {
        let predicate = request.predicate
        guard request.unifyResults, !request.includeTotalCount, predicate.linkedMembers == nil,
            predicate.containerIdentifier == nil
        else { return nil }
        var plain = request
        plain.unifyResults = false
        guard let search = OrderedNameSearch(plain, order: order) else { return nil }
        self = search
        self.source = .unified
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
    /// a bucket with the last, since a bucket's rows are in exact order only once sorted. Candidates the source
    /// leaves out once read (other members, unified contacts matched across members) widen the scan and read again,
    /// rarely. `nil` when the scan grows past its budget (a container filter that rejects most matches), for the
    /// general path to take over.
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
        let anchor = cursor.map {
            Candidate(ftsRowid: 0, rowid: $0.rowid, identifier: $0.identifier, sortKey: $0.sortKey)
        }
        var target = count + 1
        var candidates: [Candidate]
        while true {
            guard
                let (found, unverified, exhausted) = try scan(
                    db, index, match: match, containerRowid: containerRowid, target: target, cursor: cursor,
                    anchor: anchor, backward: backward)
            else { return nil }
            candidates = found
            candidates.sort { backward ? $1.isBefore($0) : $0.isBefore($1) }
            candidates = try verified(db, index, match: match, candidates, unverified, needed: count + 1)
            if candidates.count > count || exhausted { break }
            target *= 4
            if target > Self.scanBudget { return nil }
        }
        let hasMore = candidates.count > count
        var page = Array(candidates.prefix(count))
        if backward { page.reverse() }
        // In the page's order, without the contacts deleted since the index was read.
        let loaded = try ContactLoader(keys: request.keysToFetch).loadOrdered(
            db, column: "rowid", values: page.map(\.rowid), related: readsRelated)
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

    /// How many index rows a search reads before the general path takes over.
    static let scanBudget = 20_000

    /// The candidates past the cursor up to where `target` index rows past it end, with their keys read and those
    /// the source leaves out dropped, unsorted; those still to check for several words (found only through a
    /// unified contact's row: ``verified(_:_:match:_:_:needed:)``); and whether the index ran out first. `nil` past
    /// the budget.
    private func scan(
        _ db: Database, _ index: NameIndex.Order, match: String, containerRowid: Int64?, target: Int,
        cursor: ContactCursor?, anchor: Candidate?, backward: Bool
    ) throws -> (candidates: [Candidate], unverified: Set<Int64>, exhausted: Bool)? {
        let bucketSize: Int64 = 1 << NameIndex.counterBits
        let cursorBucket = cursor.map { NameIndex.bucket($0.sortKey) >> NameIndex.counterBits }
        var bound: Int64 =
            cursor.map { NameIndex.bucket($0.sortKey) + (backward ? bucketSize - 1 : 0) } ?? (backward ? .max : 0)
        var inclusive = true
        // The scan reads index rowids only (the contact is the rowid's low bits); names and identifiers are read
        // afterwards, for the few rows kept. Rows of the cursor's own bucket are kept but not counted: which of them
        // come after the cursor is only known once their keys are read.
        var kept: [(ftsRowid: Int64, rowid: Int64)] = []
        /// The contacts kept only through the unified contacts' index, until their own row is read.
        var throughOthers = Set<Int64>()
        var counted = 0
        var boundaryBucket: Int64?
        var exhausted = false
        // Rows are read lazily and the scan stops where the last bucket it needs ends, so a batch's LIMIT only says
        // when to run the query again: rarely, since each run of an OR of many terms ("weiß": 46 whole terms) costs
        // its setup again.
        let batch = max(target + 32, 1024)
        var scanned = 0
        let join =
            containerRowid == nil
            ? ""
            : "JOIN contact c ON c.rowid = f.rowid & \(NameIndex.contactMask) AND c.containerRowid = \(containerRowid!)"
        let op = { (inclusive: Bool) in backward ? (inclusive ? "<=" : "<") : (inclusive ? ">=" : ">") }
        let direction = backward ? "DESC" : "ASC"
        func select(_ table: String, linked: Int) -> String {
            "SELECT f.rowid, \(linked) FROM \(table) f \(join) WHERE \(table) MATCH ?1 AND f.rowid \(op(inclusive)) ?2"
        }
        scan: while true {
            // Both indexes of a unified search are read in one merged pass: SQLite merges the two ordered scans.
            let sql =
                switch source {
                case .contacts, .standing: select(index.table, linked: 0)
                case .linked: select(index.linkedTable, linked: 1)
                case .unified: select(index.table, linked: 0) + " UNION ALL " + select(index.linkedTable, linked: 1)
                }
            let statement = try db.cachedStatement(sql: sql + " ORDER BY 1 \(direction) LIMIT ?3")
            let rows = try SQLiteRows(statement, arguments: [match, bound, batch])
            var fetched = 0
            while let columns = try rows.next() {
                fetched += 1
                let ftsRowid = columns.int64(0)
                bound = ftsRowid
                let bucket = ftsRowid >> NameIndex.counterBits
                if let boundaryBucket, bucket != boundaryBucket { break scan }
                let rowid = ftsRowid & NameIndex.contactMask
                if columns.int64(1) == 1 {
                    // Its own row, if it matches too, has the same rowid: it came first, or comes next.
                    if kept.last?.rowid == rowid { continue }
                    throughOthers.insert(rowid)
                } else if throughOthers.remove(rowid) != nil {
                    continue
                }
                kept.append((ftsRowid, rowid))
                if bucket != cursorBucket {
                    counted += 1
                    if counted == target { boundaryBucket = bucket }
                }
            }
            inclusive = false
            scanned += fetched
            if fetched < batch {
                exhausted = true
                break
            }
            if scanned > Self.scanBudget && boundaryBucket == nil { return nil }
        }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(min(kept.count, 4 * target + 64))
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
                    after: bucket == cursorBucket ? anchor : nil, needed: target)
            } else {
                byRowid += kept[start..<end].lazy.map(\.rowid)
            }
            start = end
        }
        let standingOnly = source == .contacts ? "" : " AND NOT linkHidden"
        for chunk in byRowid.chunked(StoreLimits.pageSize) {
            let list = InList(chunk)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT rowid, id, \(index.sortColumn) FROM contact WHERE rowid IN (\(list.placeholders))\(standingOnly)
                    """)
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
        return (candidates, words.count > 1 ? throughOthers : [], exhausted)
    }

    /// The first `needed` of `sorted` (in page order) with those in `unverified` checked for a member matching
    /// every word on its own, and dropped if none does. Checked a page's stretch at a time, so a search pays for
    /// the candidates it shows, not for every one its scan read.
    private func verified(
        _ db: Database, _ index: NameIndex.Order, match: String, _ sorted: [Candidate], _ unverified: Set<Int64>,
        needed: Int
    ) throws -> [Candidate] {
        guard !unverified.isEmpty else { return sorted }
        var result: [Candidate] = []
        var position = sorted.startIndex
        while position < sorted.endIndex && result.count < needed {
            let stretch = sorted[position..<min(sorted.endIndex, position + needed - result.count)]
            let checked = stretch.lazy.map(\.rowid).filter(unverified.contains)
            let matching =
                checked.isEmpty ? [] : try matchingOneMember(db, index, match: match, standing: Array(checked))
            result += stretch.filter { !unverified.contains($0.rowid) || matching.contains($0.rowid) }
            position = stretch.endIndex
        }
        return result
    }

    /// Of these name-preferred members, found through their unified contact's row, those with a member matching
    /// every word on its own. A row holding one member's names says so already; a row of several members' (rare)
    /// is checked member by member (the name-preferred one too: its own row may have been cut off by a batch), each
    /// check a match of the whole index.
    private func matchingOneMember(_ db: Database, _ index: NameIndex.Order, match: String, standing: [Int64]) throws
        -> Set<Int64>
    {
        var matching = Set<Int64>()
        for chunk in standing.chunked(StoreLimits.pageSize) {
            let list = InList(chunk)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT lp.contactRowid FROM contactLink lp JOIN contactLinkName n ON n.unifiedId = lp.unifiedId
                    WHERE lp.contactRowid IN (\(list.placeholders)) AND n.members = 1
                    UNION
                    SELECT lp.contactRowid FROM contactLink lp
                    JOIN contactLinkName n ON n.unifiedId = lp.unifiedId AND n.members > 1
                    JOIN contactLink lm ON lm.unifiedId = lp.unifiedId
                    JOIN contact m ON m.rowid = lm.contactRowid
                    WHERE lp.contactRowid IN (\(list.placeholders))
                    AND EXISTS (
                        SELECT 1 FROM \(index.table) f WHERE \(index.table) MATCH ? AND f.rowid = m.\(index.contactColumn))
                    """)
            let rows = try SQLiteRows(statement, arguments: list.arguments + list.arguments + [match])
            while let columns = try rows.next() { matching.insert(columns.int64(0)) }
        }
        return matching
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
        // Other members of unified contacts are read and skipped: a column of the row, not of the index.
        let standingOnly = source == .contacts ? "" : "AND NOT linkHidden"
        let statement = try db.cachedStatement(
            sql: """
                SELECT rowid, id, \(index.sortColumn) FROM contact WHERE \(index.sortColumn) >= ? \(standingOnly)
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
