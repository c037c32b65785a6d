import CarnetStore
import Logging
import PostgresNIO

/// What unifying contacts reads, in one prepared statement: the link groups that some identifiers name (their own or
/// a member's) with their members, and, when asked, the contacts named that are not linked. Unifying a page took two
/// round trips (groups, then members) and a contact by identifier two (groups, then contacts), each second one
/// planned every time.
struct PostgresLinkedRead {
    /// The keys every contact here is read with: each column but the images (a member's row is read anyway, for
    /// its place in creation order, and a statement whose text does not depend on the keys can be prepared).
    /// Images would repeat on each of a contact's value rows, so their reads go the two-step way.
    static let columnKeys = ContactKeySet.all.subtracting(.multiValues).subtracting([
        .imageData, .thumbnailImageData,
    ])

    /// Members with the keys synthesis reads; contacts not linked with `keys` exactly, as a plain read gives them.
    let members: PostgresContactLoader
    let requested: PostgresContactLoader
    /// Where the requested loader's columns are in the members' rows.
    let requestedPositions: [Int]
    let keys: ContactKeySet

    /// `nil` for keys whose columns the read leaves out (the images).
    init?(keys: ContactKeySet) {
        self.keys = keys
        members = PostgresContactLoader(
            keys: Self.columnKeys.union(UnifiedContact.memberKeys(for: keys).intersection(.multiValues)))
        requested = PostgresContactLoader(keys: keys)
        guard let positions = requested.positions(in: members) else { return nil }
        requestedPositions = positions
    }

    /// The groups of `identifiers` with their members other than `known` (whose values the caller has), and with
    /// `unlinked` the contacts named that no group holds.
    func read(
        _ connection: PostgresConnection, logger: Logger, book: String, identifiers: [String], known: Set<String>,
        unlinked withUnlinked: Bool
    ) async throws -> (groups: [LinkGroup], members: [String: Contact], unlinked: [Contact]) {
        let statement = Statement(
            book: book, identifiers: identifiers, known: Array(known), kinds: members.valueKinds,
            unlinked: withUnlinked)
        // One identifier (a contact by identifier, the API's commonest read) binds it alone: with an array
        // PostgreSQL kept planning each execution (a one-element array's custom plan looks cheaper than the generic
        // one's guess of ten), which cost more than running it and halved the requests a server answered.
        let rows =
            identifiers.count == 1
            ? try await connection.executeRows(OneStatement(statement), logger: logger)
            : try await connection.executeRows(statement, logger: logger)
        let linkColumn = PostgresContactLoader.metadataCount + members.columns.count
        var links: [(String, String, Bool, Bool)] = []
        var linked: [String: Contact] = [:]
        var unlinked: [Contact] = []
        var current: (identifier: String, linked: Bool)?
        for row in rows {
            let cells = Array(row)
            let identifier = try cells[0].decode(String.self)
            if current?.identifier != identifier {
                if let unified = try cells[linkColumn].decode(String?.self) {
                    links.append(
                        (
                            unified, identifier, try cells[linkColumn + 1].decode(Bool.self),
                            try cells[linkColumn + 2].decode(Bool.self)
                        ))
                    if !known.contains(identifier) { linked[identifier] = try members.decode(cells) }
                    current = (identifier, true)
                } else {
                    unlinked.append(try requested.decode(cells, positions: requestedPositions))
                    current = (identifier, false)
                }
            }
            guard let rawKind = try cells[linkColumn + 3].decode(Int16?.self),
                let kind = MultiValueKind(rawValue: Int(rawKind)), let current
            else { continue }
            let (id, label, value) = (
                try cells[linkColumn + 4].decode(String.self), try cells[linkColumn + 5].decode(String?.self),
                try cells[linkColumn + 6].decode(String.self)
            )
            if current.linked {
                linked[identifier]?.appendEncoded(kind, identifier: id, label: label, value: value)
            } else if keys.contains(kind.key) {
                unlinked[unlinked.count - 1].appendEncoded(kind, identifier: id, label: label, value: value)
            }
        }
        return (LinkGroup.assembled(links), linked, unlinked)
    }

    /// A row per contact and value: the contact's columns (``columnKeys``), its link (null for a contact not linked),
    /// then one of its values of the kinds asked for (none for known members). Members come first, by unified
    /// identifier and creation, as ``LinkGroup/assembled(_:)`` takes them.
    struct Statement: PostgresPreparedStatement {
        // The unified identifiers go through an array: as an `IN (subquery)` the planner hashed them and scanned
        // every link of the book (12 ms at 100,000 contacts); an array is probed through the index. The kinds are
        // a filter, not an index condition (``PostgresContactLoader/kindCondition(_:_:_:)``). A known member's
        // values are probed with a null key, which the index answers without a descent; as a condition of the join
        // they were read and then dropped.
        static let sql = text(identifiers: "$2")

        /// The statement with `identifiers` (an array) in place of the identifiers.
        static func text(identifiers: String) -> String {
            """
            SELECT \(PostgresContactLoader(keys: columnKeys).selectSQL),
                l.unified_id, l.preferred_for_name, l.preferred_for_image, v.kind, v.id, v.label, v.value
            FROM (
                SELECT k.contact_id, k.unified_id, k.preferred_for_name, k.preferred_for_image
                FROM contact_link k WHERE k.book_id = $1 AND k.unified_id = ANY(ARRAY(
                    SELECT g.unified_id FROM contact_link g WHERE g.book_id = $1 AND g.unified_id = ANY(\(identifiers))
                    UNION SELECT g.unified_id FROM contact_link g
                    WHERE g.book_id = $1 AND g.contact_id = ANY(\(identifiers))))
                UNION ALL
                SELECT i.id, NULL, false, false FROM (SELECT DISTINCT unnest(\(identifiers)) AS id) i
                WHERE $5 AND NOT EXISTS (SELECT 1 FROM contact_link g WHERE g.book_id = $1 AND g.contact_id = i.id)
            ) l
            JOIN contact c ON c.book_id = $1 AND c.id = l.contact_id
            LEFT JOIN labeled_value v ON v.book_id = $1 AND v.kind + 0 = ANY($4)
                AND v.contact_id = (CASE WHEN c.id = ANY($3) THEN NULL ELSE c.id END)
            ORDER BY l.unified_id, c.created_order, c.id, v.kind, v.position
            """
        }

        static let name = "carnet_linked_read_v1"
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .textArray, .int2Array, .bool]
        typealias Row = PostgresRow

        let book: String
        let identifiers: [String]
        let known: [String]
        let kinds: [Int16]
        let unlinked: Bool

        func makeBindings() throws -> PostgresBindings { bindings { $0.append(identifiers) } }

        /// The bindings in order, `$2` (the identifiers) as `bindIdentifiers` binds it.
        func bindings(_ bindIdentifiers: (inout PostgresBindings) -> Void) -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(book)
            bindIdentifiers(&bindings)
            bindings.append(known)
            bindings.append(kinds)
            bindings.append(unlinked)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { row }
    }

    /// ``Statement`` for one identifier, bound as text.
    struct OneStatement: PostgresPreparedStatement {
        static let sql = Statement.text(identifiers: "ARRAY[$2]")
        static let name = "carnet_linked_read_one_v1"
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .textArray, .int2Array, .bool]
        typealias Row = PostgresRow

        let statement: Statement

        init(_ statement: Statement) { self.statement = statement }

        func makeBindings() throws -> PostgresBindings {
            statement.bindings { $0.append(statement.identifiers.first ?? "") }
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { row }
    }
}

extension PostgresStore {
    public func linkGroupsAndMembers(containing identifiers: [String], known: Set<String>, keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact])
    {
        guard !identifiers.isEmpty else { return ([], [:]) }
        guard let linkedRead = PostgresLinkedRead(keys: keys) else {
            return try await UnifiedFetch.linkGroupsAndMembers(
                containing: identifiers, known: known, keys: keys, in: self)
        }
        let identifiers = identifiers.storable
        let found = try await read { connection in
            try await linkedRead.read(
                connection, logger: logger, book: bookID, identifiers: identifiers, known: known, unlinked: false)
        }
        return (found.groups, found.members)
    }

    public func contactsToUnify(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact], unlinked: [Contact])
    {
        guard !identifiers.isEmpty else { return ([], [:], []) }
        guard let linkedRead = PostgresLinkedRead(keys: keys) else {
            return try await UnifiedFetch.contactsToUnify(withIdentifiers: identifiers, keysToFetch: keys, in: self)
        }
        let identifiers = identifiers.storable
        return try await read { connection in
            try await linkedRead.read(
                connection, logger: logger, book: bookID, identifiers: identifiers, known: [], unlinked: true)
        }
    }
}
