import CarnetStore
import Foundation
import Logging
import PostgresNIO

extension PostgresCatalog {
    static let bookColumns = "id, name, owner_id, created_at"
    typealias BookRow = (String, String, String, Double)

    /// A book's records live in the shared tables under its id.
    static func book(_ row: BookRow) -> AddressBook {
        AddressBook(id: row.0, name: row.1, ownerID: row.2, created: Date(timeIntervalSince1970: row.3))
    }

    /// A new book owned by `ownerID`. - Throws: `quotaExceeded` past ``StoreConfiguration/booksPerPrincipal``,
    /// `recordDoesNotExist` for an unknown owner, `validationFailed` for a bad name.
    public func createBook(name: String, ownerID: String) async throws -> AddressBook {
        let ownerID = ownerID.storable
        try CatalogNames.validate(name, what: "book")
        let (quota, logger) = (configuration.booksPerPrincipal, self.logger)
        return try await database.write { connection in
            // The owner's row lock makes the count and the insert one step for concurrent creators.
            guard try await Self.principal(connection, id: ownerID, lock: true, logger: logger) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [ownerID])
            }
            let owned =
                try await connection.rows(
                    "SELECT count(*)::bigint FROM address_book WHERE owner_id = \(ownerID)", logger: logger
                ).decode(Int64.self).array().first ?? 0
            guard owned < quota else {
                throw StoreError(.quotaExceeded, "A principal may own at most \(quota) address books.")
            }
            return try await Self.insertBook(connection, name: name, ownerID: ownerID, logger: logger)
        }
    }

    static func insertBook(_ connection: PostgresConnection, name: String, ownerID: String, logger: Logger)
        async throws -> AddressBook
    {
        let book = AddressBook(
            id: try await newIdentifier(connection, logger: logger), name: name, ownerID: ownerID)
        try await connection.rows(
            """
            INSERT INTO address_book (id, name, owner_id, created_at)
            VALUES (\(book.id), \(name), \(ownerID), \(book.created.timeIntervalSince1970))
            """, logger: logger)
        return book
    }

    /// The books a principal may open: its own, then those shared with it, each by name.
    public func books(visibleTo principalID: String) async throws -> [VisibleBook] {
        let principalID = principalID.storable
        let logger = self.logger
        return try await database.read { connection in
            let rows = try await connection.rows(
                """
                SELECT b.id, b.name, b.owner_id, b.created_at,
                CASE WHEN b.owner_id = \(principalID) THEN 'owner' ELSE g.access END,
                p.id, p.name, p.kind, p.is_admin, p.created_at, p.disabled_at, p.default_book_id
                FROM address_book b JOIN principal p ON p.id = b.owner_id
                LEFT JOIN book_grant g ON g.book_id = b.id AND g.principal_id = \(principalID)
                WHERE b.owner_id = \(principalID) OR g.principal_id IS NOT NULL
                ORDER BY b.owner_id <> \(principalID), b.name COLLATE "C", b.id
                """, logger: logger
            ).decode(
                (String, String, String, Double, String, String, String, String, Bool, Double, Double?, String?).self
            ).array()
            return rows.compactMap { row in
                guard let access = BookAccess(rawValue: row.4) else { return nil }
                let owner = Self.principal((row.5, row.6, row.7, row.8, row.9, row.10, row.11))
                return VisibleBook(
                    book: Self.book((row.0, row.1, row.2, row.3)), access: access,
                    sharedBy: access == .owner ? nil : owner)
            }
        }
    }

    /// What `principalID` may do with the book through a token that may be limited to some books (`tokenBooks`;
    /// `nil` for all of its principal's), or `nil` when it may not know the book exists.
    public func access(principalID: String, bookID: String, tokenBooks: [String]?) async throws -> (
        book: AddressBook, access: BookAccess
    )? {
        let principalID = principalID.storable
        let bookID = bookID.storable
        if let tokenBooks, !tokenBooks.contains(bookID) { return nil }
        let logger = self.logger
        return try await database.read { connection in
            try await Self.access(connection, principalID: principalID, bookID: bookID, logger: logger)
        }
    }

    static func access(_ connection: PostgresConnection, principalID: String, bookID: String, logger: Logger)
        async throws -> (book: AddressBook, access: BookAccess)?
    {
        let rows = try await connection.rows(
            """
            SELECT id, name, owner_id, created_at, CASE WHEN owner_id = \(principalID) THEN 'owner'
            ELSE (SELECT access FROM book_grant WHERE book_id = \(bookID) AND principal_id = \(principalID)) END
            FROM address_book WHERE id = \(bookID)
            """, logger: logger
        ).decode((String, String, String, Double, String?).self).array()
        guard let row = rows.first, let text = row.4, let access = BookAccess(rawValue: text) else { return nil }
        return (book((row.0, row.1, row.2, row.3)), access)
    }

    /// The book with this id, whoever owns it (for the CLI; requests go through ``access``).
    public func book(id: String) async throws -> AddressBook? {
        let id = id.storable
        let logger = self.logger
        return try await database.read { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.bookColumns) FROM address_book WHERE id = \(id)", logger: logger
            ).decode(BookRow.self).array().first.map(Self.book)
        }
    }

    /// Every book, for the CLI and tools.
    public func allBooks() async throws -> [AddressBook] {
        let logger = self.logger
        return try await database.read { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.bookColumns) FROM address_book ORDER BY created_at, id COLLATE \"C\"",
                logger: logger
            ).decode(BookRow.self).array().map(Self.book)
        }
    }

    /// Renames a book; owners only.
    public func renameBook(id: String, to name: String, by principalID: String) async throws -> AddressBook {
        let id = id.storable
        let principalID = principalID.storable
        try CatalogNames.validate(name, what: "book")
        let logger = self.logger
        return try await database.write { connection in
            var book = try await Self.owned(connection, bookID: id, by: principalID, logger: logger)
            try await connection.rows("UPDATE address_book SET name = \(name) WHERE id = \(id)", logger: logger)
            book.name = name
            return book
        }
    }

    /// Deletes a book from the catalog (owners only; not a principal's default book) with its records, in one
    /// transaction, and returns it, so the caller ends its subscriptions. Its identifier is never used again.
    public func deleteBook(id: String, by principalID: String) async throws -> AddressBook {
        let id = id.storable
        let principalID = principalID.storable
        let logger = self.logger
        return try await database.write { connection in
            let book = try await Self.owned(connection, bookID: id, by: principalID, logger: logger)
            let isDefault = try await connection.rows(
                "SELECT 1 FROM principal WHERE default_book_id = \(id)", logger: logger
            ).collect()
            guard isDefault.isEmpty else {
                throw StoreError(.forbidden, "A principal's default address book cannot be deleted.", affected: [id])
            }
            try await BookRecords.delete(connection, bookID: id, logger: logger)
            try await Self.retire(connection, [id], logger: logger)
            try await connection.rows("DELETE FROM address_book WHERE id = \(id)", logger: logger)
            return book
        }
    }

    /// The book, when `principalID` owns it. - Throws: `recordDoesNotExist` when the principal may not know of it,
    /// `forbidden` when it may use it but not manage it.
    static func owned(_ connection: PostgresConnection, bookID: String, by principalID: String, logger: Logger)
        async throws -> AddressBook
    {
        guard
            let (book, access) = try await access(connection, principalID: principalID, bookID: bookID, logger: logger)
        else {
            throw StoreError.noSuchBook(bookID)
        }
        guard access == .owner else {
            throw StoreError(.forbidden, "Only the book's owner may do this.", affected: [bookID])
        }
        return book
    }
}
