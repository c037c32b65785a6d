import CarnetStore
import Foundation
import PostgresNIO

/// Runs one ``ContactFetchRequest``: a keyset page in the requested order, each search condition served by its
/// index (name words, email and phone keys, memberships), the book named in every part.
struct PostgresContactFetch {
    let request: ContactFetchRequest
    let order: ContactSortOrder
    let store: PostgresStore

    /// The sort column for a resolved order, or the creation order.
    static func sortColumn(_ order: ContactSortOrder) -> String {
        switch order {
        case .givenName: "c.sort_given"
        case .familyName: "c.sort_family"
        case .none, .userDefault: "c.created_order"
        }
    }

    /// How many name words get a condition of their own (below the planner's join collapse limit).
    static let indexedNameWords = 4

    /// The conditions of a predicate, bound in `sql`; `nil` when it can match nothing (an empty name query).
    static func conditions(
        _ predicate: ContactPredicate, book: String, _ sql: inout SQLBuilder, on c: String = "c"
    ) throws -> [String]? {
        var predicate = predicate
        // The unified contacts' own conditions hold for the name-preferred members found (`c`) themselves.
        var standingFor: [ContactPredicate]?
        if case .standingForOthersMatching(let others) = predicate.linkedMembers {
            (standingFor, predicate) = (others.memberConditions, others.ownConditions)
        }
        let bookParameter = try sql.bind(book)
        var conditions = ["\(c).book_id = \(bookParameter)"]
        if let name = predicate.matchingName {
            let words = TextFolding.queryWords(name)
            guard !words.isEmpty else { return nil }
            // The longest (most selective) words each get an index range the planner can drive from; any further
            // words are checked in one join, whatever their number. A condition per word made the planner's work
            // grow with the words: 400 of them took minutes to plan.
            let distinct = Set(words).sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
            for word in distinct.prefix(Self.indexedNameWords) {
                conditions.append(
                    """
                    \(c).id IN (SELECT w.contact_id FROM contact_name_word w WHERE w.book_id = \(bookParameter)
                        AND w.word >= \(try sql.bind(word)) AND w.word < \(try sql.bind(word + "\u{10FFFF}")))
                    """)
            }
            let rest = Array(distinct.dropFirst(Self.indexedNameWords))
            if !rest.isEmpty {
                // Each name word is a prefix of few query words, so this reads a few rows per name word at most.
                conditions.append(
                    """
                    \(c).id IN (SELECT w.contact_id FROM unnest(\(try sql.bind(rest))::text[]) AS q(word)
                        JOIN contact_name_word w ON w.book_id = \(bookParameter) AND w.word >= q.word COLLATE "C"
                            AND w.word < (q.word || chr(1114111)) COLLATE "C"
                        GROUP BY w.contact_id HAVING count(DISTINCT q.word) = \(try sql.bind(Int64(rest.count))))
                    """)
            }
        }
        for (text, kind, key) in [
            (predicate.matchingEmailAddress, MultiValueKind.emailAddresses, TextFolding.emailKey),
            (predicate.matchingPhoneNumber, .phoneNumbers, TextFolding.phoneKey),
        ] {
            guard let text else { continue }
            guard let searchKey = key(text) else { return nil }
            conditions.append(
                """
                \(c).id IN (SELECT v.contact_id FROM labeled_value v WHERE v.book_id = \(bookParameter)
                    AND v.kind = \(try sql.bind(Int16(kind.rawValue))) AND v.search_key = \(try sql.bind(searchKey)))
                """)
        }
        if let identifiers = predicate.identifiers {
            guard !identifiers.isEmpty else { return nil }
            conditions.append("\(c).id = ANY(\(try sql.bind(identifiers)))")
        }
        if let group = predicate.groupIdentifier {
            conditions.append(
                """
                \(c).id IN (SELECT gm.contact_id FROM group_member gm
                    WHERE gm.book_id = \(bookParameter) AND gm.group_id = \(try sql.bind(group)))
                """)
        }
        if let container = predicate.containerIdentifier {
            conditions.append("\(c).container_id = \(try sql.bind(container))")
        }
        switch predicate.linkedMembers {
        case .excluded: conditions.append("NOT \(c).link_hidden")
        // The former was taken apart above (own conditions hold no linked-member condition).
        case .standingForOthersMatching, nil: break
        }
        if let standingFor {
            guard let standing = try standingMembers(meeting: standingFor, book: book, &sql, on: c) else {
                return nil
            }
            conditions += standing
        }
        return conditions
    }

    /// Conditions that keep the name-preferred members of the unified contacts meeting each condition through one
    /// of their members (any, each its own); `nil` when a condition can match nothing.
    static func standingMembers(
        meeting memberConditions: [ContactPredicate], book: String, _ sql: inout SQLBuilder, on c: String
    ) throws -> [String]? {
        let bookParameter = try sql.bind(book)
        guard !memberConditions.isEmpty else {
            return [
                "\(c).id IN (SELECT contact_id FROM contact_link WHERE book_id = \(bookParameter) AND preferred_for_name)"
            ]
        }
        var conditions: [String] = []
        for condition in memberConditions {
            guard let inner = try Self.conditions(condition, book: book, &sql, on: "m") else { return nil }
            conditions.append(
                """
                \(c).id IN (SELECT lp.contact_id FROM contact_link lm
                    JOIN contact_link lp ON lp.book_id = lm.book_id AND lp.unified_id = lm.unified_id
                        AND lp.preferred_for_name
                    WHERE lm.book_id = \(bookParameter)
                        AND lm.contact_id IN (SELECT m.id FROM contact m WHERE \(inner.joined(separator: " AND "))))
                """)
        }
        return conditions
    }

    func run(_ connection: PostgresConnection) async throws -> ContactPage {
        let (count, cursorText, backward): (Int, String?, Bool) =
            switch request.page {
            case .first(let n, let after): (n, after, false)
            case .last(let n, let before): (n, before, true)
            }
        guard (1...StoreLimits.pageSize).contains(count) else {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        try request.predicate.validateLimits()
        let cursor = try cursorText.map { try ContactCursor(encoded: $0, order: order) }
        let loader = PostgresContactLoader(keys: request.keysToFetch)
        var nameSearch = PostgresNameSearch(request.predicate, order: order)
        if let search = nameSearch, search.words.count > 1 {
            nameSearch = search.ranked(
                by: try await search.prefixCounts(connection, store: store, cache: store.namePrefixCounts))
        }
        guard
            let (query, filter, countSQL) = try pageQuery(
                loader, count: count, cursor: cursor, backward: backward, nameSearch: nameSearch)
        else {
            return ContactPage(
                contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false,
                totalCount: request.includeTotalCount ? 0 : nil)
        }
        var countBuilder = countSQL
        var contacts: [Contact] = []
        var positions: [ContactCursor] = []
        for try await row in try await connection.rows(query, logger: store.logger) {
            let (createdOrder, contact, cells) = try loader.decode(row)
            let sortKey = try cells[PostgresContactLoader.metadataCount + loader.columns.count].decode(String.self)
            contacts.append(contact)
            var position = ContactCursor(
                order: order, rowid: createdOrder, identifier: contact.identifier, sortKey: sortKey)
            position.bytewise = true
            positions.append(position)
        }
        let hasMore = contacts.count > count
        if hasMore {
            contacts.removeLast()
            positions.removeLast()
        }
        if backward {
            contacts.reverse()
            positions.reverse()
        }
        try await loader.loadRelated(connection, store: store, into: &contacts)
        var total: Int?
        if request.includeTotalCount {
            total = try await Self.count(connection, store: store, filter: filter, &countBuilder)
        }
        return ContactPage(
            contacts: contacts, positions: positions,
            hasNextPage: backward ? cursor != nil : hasMore,
            hasPreviousPage: backward ? hasMore : cursor != nil,
            totalCount: total)
    }

    /// The page's statement, the predicate's conditions and their bindings (for the count); `nil` when the
    /// predicate can match nothing.
    /// - Parameter nameSearch: the request's name search when it reads the prefix index (``PostgresNameSearch``).
    func pageQuery(
        _ loader: PostgresContactLoader, count: Int, cursor: ContactCursor?, backward: Bool,
        nameSearch: PostgresNameSearch?
    ) throws -> (query: PostgresQuery, filter: [String], filterSQL: SQLBuilder)? {
        var sql = SQLBuilder()
        guard var conditions = try Self.conditions(request.predicate, book: store.bookID, &sql) else { return nil }
        let (filter, filterSQL) = (conditions, sql)
        if let search = nameSearch {
            var ordered = SQLBuilder()
            var others = request.predicate
            others.matchingName = nil
            if search.source != .contacts { others.linkedMembers = nil }
            guard let otherConditions = try Self.conditions(others, book: store.bookID, &ordered),
                let query = try search.query(
                    select: loader.selectSQL, order: order, book: store.bookID, others: otherConditions,
                    cursor: cursor, backward: backward, limit: count + 1, &ordered)
            else { return nil }
            return (query, filter, filterSQL)
        }
        let sortColumn = Self.sortColumn(order)
        let sorted = order != .none
        if let cursor {
            let op = backward ? "<" : ">"
            if sorted {
                conditions.append(
                    "(\(sortColumn), c.id) \(op) (\(try sql.bind(cursor.sortKey)), \(try sql.bind(cursor.identifier)))")
            } else {
                conditions.append("c.created_order \(op) \(try sql.bind(cursor.rowid))")
            }
        }
        let direction = backward ? "DESC" : "ASC"
        let orderBy = sorted ? "\(sortColumn) \(direction), c.id \(direction)" : "c.created_order \(direction)"
        let text = """
            SELECT \(loader.selectSQL), \(sorted ? sortColumn : "''::text") FROM contact c
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(orderBy) LIMIT \(try sql.bind(count + 1))
            """
        return (sql.query(text), filter, filterSQL)
    }

    static let notHidden = "NOT c.link_hidden"

    /// How many contacts the conditions match; every contact is the book's stored count (less the linked members
    /// that do not stand for their unified contact, counted on their partial index).
    static func count(
        _ connection: PostgresConnection, store: PostgresStore, filter: [String], _ sql: inout SQLBuilder
    ) async throws -> Int {
        if filter.count == 1 || (filter.count == 2 && filter[1] == notHidden) {
            // A statement of its own: the text is complete before the query takes the bindings (a query made in the
            // same expression that binds would take them as they were before).
            var own = SQLBuilder()
            let book = try own.bind(store.bookID)
            let hidden =
                filter.count == 1 ? "0" : "(SELECT count(*) FROM contact WHERE book_id = \(book) AND link_hidden)"
            let text = "SELECT contact_count - \(hidden) FROM book_store WHERE book_id = \(book)"
            return Int(
                try await connection.rows(own.query(text), logger: store.logger).decode(Int64.self).array().first
                    ?? 0)
        }
        let text = "SELECT count(*)::bigint FROM contact c WHERE \(filter.joined(separator: " AND "))"
        return Int(
            try await connection.rows(sql.query(text), logger: store.logger).decode(Int64.self).array().first ?? 0)
    }
}
