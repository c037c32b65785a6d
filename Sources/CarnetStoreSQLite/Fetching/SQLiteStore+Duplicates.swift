import CarnetStore
import GRDB

extension SQLiteStore {
    /// Pairs of contacts that are probably the same person (see ``ContactStore/duplicateCandidates(_:)``).
    ///
    /// Shared emails and phone numbers are grouped in SQL over the search-key index (`labeledValue_searchContact`), so
    /// only the keys two to ``StoreLimits/duplicateKeySharers`` contacts share are read; the names come from one
    /// pass over the contacts, folded and grouped by ``DuplicateFinder`` (the store keeps no folded name per field
    /// to group by). Both reads are linear; an unbounded read, so it takes GRDB's asynchronous path.
    public func duplicateCandidates(_ request: DuplicateCandidateRequest) async throws -> DuplicateCandidatePage {
        try DuplicateFinder.validate(request, storeID: storeID)
        return try await databaseRead { db in
            var finder = DuplicateFinder()
            for key in try Self.sharedValueKeys(db) { try finder.add(key) }
            try finder.add(names: try Self.duplicateNames(db))
            let links = try Row.fetchAll(
                db,
                sql:
                    "SELECT member.id, l.unifiedId FROM contactLink l JOIN contact member ON member.rowid = l.contactRowid"
            )
            finder.excludeLinked(Dictionary(links.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first }))
            return try finder.page(request, storeID: storeID)
        }
    }

    /// The email and phone search keys shared by 2 to ``StoreLimits/duplicateKeySharers`` contacts, with them.
    private static func sharedValueKeys(_ db: Database) throws -> [DuplicateFinder.SharedKey] {
        let email = MultiValueKind.emailAddresses.rawValue
        let phone = MultiValueKind.phoneNumbers.rawValue
        let statement = try db.makeStatement(
            sql: """
                WITH shared AS (
                    SELECT kind, searchKey FROM labeledValue
                    WHERE kind IN (\(email), \(phone)) AND searchKey IS NOT NULL
                    GROUP BY kind, searchKey HAVING count(DISTINCT contactRowid) BETWEEN 2 AND ?
                )
                SELECT s.kind, s.searchKey, c.id FROM shared s
                JOIN labeledValue v ON v.kind = s.kind AND v.searchKey = s.searchKey
                JOIN contact c ON c.rowid = v.contactRowid
                ORDER BY s.kind, s.searchKey
                """)
        var keys: [DuplicateFinder.SharedKey] = []
        let rows = try SQLiteRows(statement, arguments: [StoreLimits.duplicateKeySharers])
        while let columns = try rows.next() {
            let kind: DuplicateReasonKind = columns.int(0) == email ? .emailAddress : .phoneNumber
            let value = columns.string(1)
            if let last = keys.last, last.kind == kind, last.value == value {
                keys[keys.count - 1].contacts.append(columns.string(2))
            } else {
                keys.append(DuplicateFinder.SharedKey(kind: kind, value: value, contacts: [columns.string(2)]))
            }
        }
        return keys
    }

    /// The names the name reasons compare, of every contact that has a family name or is an organization (no
    /// name reason holds for the others).
    private static func duplicateNames(_ db: Database) throws -> [DuplicateFinder.Names] {
        let statement = try db.makeStatement(
            sql: """
                SELECT id, contactType, givenName, familyName, nickname, organizationName FROM contact
                WHERE familyName <> '' OR (contactType = \(ContactType.organization.rawValue) AND organizationName <> '')
                """)
        var names: [DuplicateFinder.Names] = []
        let rows = try SQLiteRows(statement)
        while let columns = try rows.next() {
            names.append(
                DuplicateFinder.Names(
                    identifier: columns.string(0), isOrganization: columns.int(1) == ContactType.organization.rawValue,
                    givenName: columns.string(2), familyName: columns.string(3), nickname: columns.string(4),
                    organizationName: columns.string(5)))
        }
        return names
    }
}
