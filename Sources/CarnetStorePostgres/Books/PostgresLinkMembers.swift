import CarnetStore
import Logging
import PostgresNIO

/// The link groups of some contacts with their members' values, in one prepared statement: unifying a page cost
/// two more round trips (groups, then members) and the members' planning, on top of the page's own two.
enum PostgresLinkMembers {
    /// Every key a member is read with here: each column but the images (a member's row is read anyway, for its
    /// place in creation order, and a statement whose text does not depend on the keys can be prepared). Images
    /// would repeat on each of a member's value rows, so their reads go the two-step way.
    static let memberColumnKeys = ContactKeySet.all.subtracting(.multiValues).subtracting([
        .imageData, .thumbnailImageData,
    ])

    /// Whether `keys` can be unified from this statement's members.
    static func serves(_ keys: ContactKeySet) -> Bool {
        !keys.contains(.imageData) && !keys.contains(.thumbnailImageData)
    }

    static func read(
        _ connection: PostgresConnection, logger: Logger, book: String, containing identifiers: [String],
        known: Set<String>, keys: ContactKeySet
    ) async throws -> (groups: [LinkGroup], members: [String: Contact]) {
        let memberKeys = memberColumnKeys.union(UnifiedContact.memberKeys(for: keys).intersection(.multiValues))
        let loader = PostgresContactLoader(keys: memberKeys)
        let statement = Statement(
            book: book, identifiers: identifiers, known: Array(known), kinds: loader.valueKinds)
        let linkColumn = PostgresContactLoader.metadataCount + loader.columns.count
        var links: [(String, String, Bool, Bool)] = []
        var members: [String: Contact] = [:]
        for try await row in try await connection.execute(statement, logger: logger) {
            let cells = Array(row)
            let member = try cells[linkColumn + 1].decode(String.self)
            if links.last?.1 != member {
                links.append(
                    (
                        try cells[linkColumn].decode(String.self), member, try cells[linkColumn + 2].decode(Bool.self),
                        try cells[linkColumn + 3].decode(Bool.self)
                    ))
                if !known.contains(member) { members[member] = try loader.decode(row).contact }
            }
            guard let rawKind = try cells[linkColumn + 4].decode(Int16?.self),
                let kind = MultiValueKind(rawValue: Int(rawKind))
            else { continue }
            members[member]?.appendEncoded(
                kind, identifier: try cells[linkColumn + 5].decode(String.self),
                label: try cells[linkColumn + 6].decode(String?.self),
                value: try cells[linkColumn + 7].decode(String.self))
        }
        return (LinkGroup.assembled(links), members)
    }

    /// A row per member and value: the member's columns (``memberColumnKeys``), its link, then one of its values of
    /// the kinds asked for (none for the known members, whose values the caller has).
    struct Statement: PostgresPreparedStatement {
        // The unified identifiers go through an array: as an `IN (subquery)` the planner hashed them and scanned
        // every link of the book (12 ms at 100,000 contacts); an array is probed through the index. The kinds are
        // a filter, not an index condition (``PostgresContactLoader/kindCondition(_:_:_:)``). A known member's
        // values are probed with a null key, which the index answers without a descent; as a condition of the join
        // they were read and then dropped.
        static let sql = """
            SELECT \(PostgresContactLoader(keys: memberColumnKeys).selectSQL),
                l.unified_id, l.contact_id, l.preferred_for_name, l.preferred_for_image, v.kind, v.id, v.label, v.value
            FROM contact_link l JOIN contact c ON c.book_id = l.book_id AND c.id = l.contact_id
            LEFT JOIN labeled_value v ON v.book_id = l.book_id AND v.kind + 0 = ANY($4)
                AND v.contact_id = (CASE WHEN l.contact_id = ANY($3) THEN NULL ELSE l.contact_id END)
            WHERE l.book_id = $1 AND l.unified_id = ANY(ARRAY(
                SELECT k.unified_id FROM contact_link k WHERE k.book_id = $1 AND k.unified_id = ANY($2)
                UNION SELECT k.unified_id FROM contact_link k WHERE k.book_id = $1 AND k.contact_id = ANY($2)))
            ORDER BY l.unified_id, c.created_order, l.contact_id, v.kind, v.position
            """
        static let name = "carnet_link_members_v1"
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .textArray, .int2Array]
        typealias Row = PostgresRow

        let book: String
        let identifiers: [String]
        let known: [String]
        let kinds: [Int16]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(book)
            bindings.append(identifiers)
            bindings.append(known)
            bindings.append(kinds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { row }
    }
}

extension PostgresStore {
    public func linkGroupsAndMembers(containing identifiers: [String], known: Set<String>, keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact])
    {
        guard !identifiers.isEmpty else { return ([], [:]) }
        guard PostgresLinkMembers.serves(keys) else {
            return try await UnifiedFetch.linkGroupsAndMembers(
                containing: identifiers, known: known, keys: keys, in: self)
        }
        let identifiers = identifiers.storable
        return try await read { connection in
            try await PostgresLinkMembers.read(
                connection, logger: logger, book: bookID, containing: identifiers, known: known, keys: keys)
        }
    }
}
