import CarnetStore
import Foundation
import PostgresNIO

extension PostgresStore: ContactStore {
    public func contacts(_ request: ContactFetchRequest) async throws -> ContactPage {
        try ContactCursor.check(request.page, storeID: storeID)
        var request = request
        request.predicate = request.predicate.storable
        var page: ContactPage
        if request.unifyResults {
            page = try await UnifiedFetch.contacts(request, in: self)
        } else {
            page = try await read { [request] connection in
                let order = try await Self.resolve(request.sortOrder, connection, store: self)
                return try await PostgresContactFetch(request: request, order: order, store: self).run(connection)
            }
        }
        page.storeID = storeID
        return page
    }

    public func contactCount(matching predicate: ContactPredicate) async throws -> Int {
        try predicate.validateLimits()
        let predicate = predicate.storable
        return try await read { connection in
            var sql = SQLBuilder()
            guard let conditions = try PostgresContactFetch.conditions(predicate, book: bookID, &sql) else { return 0 }
            return try await PostgresContactFetch.count(connection, store: self, filter: conditions, &sql)
        }
    }

    public func contactIdentifiers(matching predicate: ContactPredicate, limit: Int) async throws -> [String] {
        try predicate.validateLimits()
        let predicate = predicate.storable
        return try await read { connection in
            var sql = SQLBuilder()
            guard let conditions = try PostgresContactFetch.conditions(predicate, book: bookID, &sql) else { return [] }
            let text =
                "SELECT c.id FROM contact c WHERE \(conditions.joined(separator: " AND ")) LIMIT \(try sql.bind(max(limit, 0)))"
            return try await connection.rows(sql.query(text), logger: logger).decode(String.self).array()
        }
    }

    public func contact(withIdentifier identifier: String, keysToFetch keys: ContactKeySet) async throws -> Contact {
        guard let contact = try await contacts(withIdentifiers: [identifier], keysToFetch: keys).first else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        return contact
    }

    public func contacts(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet) async throws
        -> [Contact]
    {
        guard !identifiers.isEmpty else { return [] }
        let identifiers = identifiers.storable
        return try await read { connection in
            try await PostgresContactLoader(keys: keys).load(connection, store: self, identifiers: identifiers)
        }
    }

    public func userDefaultSortOrder() async throws -> ContactSortOrder {
        try await read { connection in try await Self.resolve(.userDefault, connection, store: self) }
    }

    public func setUserDefaultSortOrder(_ order: ContactSortOrder) async throws {
        guard order != .userDefault else {
            throw StoreError(
                .validationFailed, "The default sort order must be a concrete order", keyPaths: ["sortOrder"])
        }
        let (bookID, logger) = (bookID, logger)
        _ = try await database.write { connection in
            try await connection.rows(
                "UPDATE book_store SET user_default_sort = \(order.rawValue) WHERE book_id = \(bookID)", logger: logger)
        }
    }

    static func resolve(_ order: ContactSortOrder, _ connection: PostgresConnection, store: PostgresStore)
        async throws -> ContactSortOrder
    {
        guard order == .userDefault else { return order }
        let stored =
            try await connection.rows(
                "SELECT user_default_sort FROM book_store WHERE book_id = \(store.bookID)", logger: store.logger
            ).decode(String?.self).array().first ?? nil
        return stored.flatMap(ContactSortOrder.init(rawValue:)) ?? .familyName
    }

    public func contactIdentifiers(keepingVCardUIDs uids: [String]) async throws -> [(uid: String, contact: String)] {
        guard !uids.isEmpty else { return [] }
        let (lines, keys) = KeptVCardLine.uidLookup(uids.map(\.storable))
        return try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT value, contact_id FROM labeled_value
                WHERE book_id = \(bookID) AND kind = \(Int16(MultiValueKind.vCardProperties.rawValue))
                    AND search_key = ANY(\(keys))
                """, logger: logger
            ).decode((String, String).self).array()
            return rows.compactMap { line, contact in KeptVCardLine.uid(of: line, among: lines).map { ($0, contact) } }
        }
    }

    public func hasContactsKeepingVCardUIDs() async throws -> Bool {
        try await read { connection in
            try await !connection.rows(
                """
                SELECT 1 FROM labeled_value WHERE book_id = \(bookID)
                    AND kind = \(Int16(MultiValueKind.vCardProperties.rawValue)) AND search_key IS NOT NULL LIMIT 1
                """, logger: logger
            ).collect().isEmpty
        }
    }

    public func unavailableIdentifiers(_ identifiers: [String]) async throws -> Set<String> {
        guard !identifiers.isEmpty else { return [] }
        let identifiers = identifiers.storable
        return try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT id FROM book_retired_identifier WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
                UNION ALL SELECT id FROM contact WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
                UNION ALL SELECT id FROM contact_group WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
                UNION ALL SELECT id FROM container WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
                UNION ALL SELECT id FROM labeled_value WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
                UNION ALL SELECT unified_id FROM contact_link WHERE book_id = \(bookID) AND unified_id = ANY(\(identifiers))
                """, logger: logger
            ).decode(String.self).array()
            return Set(rows)
        }
    }
}
