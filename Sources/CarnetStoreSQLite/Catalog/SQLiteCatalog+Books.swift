import CarnetStore
import Foundation
import GRDB

extension SQLiteCatalog {
    static let bookColumns = "id, name, ownerId, createdAt"

    static func book(_ row: Row) -> AddressBook {
        AddressBook(
            id: row[0], name: row[1], ownerID: row[2], created: Date(timeIntervalSince1970: row[3]))
    }

    /// A new book owned by `ownerID`. - Throws: `quotaExceeded` past ``StoreConfiguration/booksPerPrincipal``,
    /// `recordDoesNotExist` for an unknown owner, `validationFailed` for a bad name.
    public func createBook(name: String, ownerID: String) async throws -> AddressBook {
        try CatalogNames.validate(name, what: "book")
        let quota = configuration.booksPerPrincipal
        return try await write { db in
            guard try Self.principal(db, id: ownerID) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [ownerID])
            }
            let owned =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM addressBook WHERE ownerId = ?", arguments: [ownerID]) ?? 0
            guard owned < quota else {
                throw StoreError(.quotaExceeded, "A principal may own at most \(quota) address books.")
            }
            return try Self.insertBook(db, name: name, ownerID: ownerID, fileName: nil)
        }
    }

    static func insertBook(_ db: Database, name: String, ownerID: String, fileName: String?) throws -> AddressBook {
        let id = try newIdentifier(db)
        let book = AddressBook(id: id, name: name, ownerID: ownerID)
        try db.execute(
            sql: """
                INSERT INTO addressBook (id, name, ownerId, fileName, createdAt, fileMade) VALUES (?, ?, ?, ?, ?, 0)
                """,
            arguments: [
                book.id, name, ownerID, fileName ?? BookStores.fileName(of: id), book.created.timeIntervalSince1970,
            ])
        return book
    }

    /// The books a principal may open: its own, then those shared with it, each by name.
    public func books(visibleTo principalID: String) async throws -> [VisibleBook] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT b.id, b.name, b.ownerId, b.createdAt,
                    CASE WHEN b.ownerId = ?1 THEN 'owner' ELSE g.access END, \(Self.principalColumnsP)
                    FROM addressBook b JOIN principal p ON p.id = b.ownerId
                    LEFT JOIN bookGrant g ON g.bookId = b.id AND g.principalId = ?1
                    WHERE b.ownerId = ?1 OR g.principalId IS NOT NULL
                    ORDER BY b.ownerId != ?1, b.name, b.id
                    """, arguments: [principalID])
            return rows.compactMap { row in
                guard let access = BookAccess(rawValue: row[4]) else { return nil }
                let book = Self.book(row)
                let owner = Self.principal(row, at: 5)
                return VisibleBook(book: book, access: access, sharedBy: access == .owner ? nil : owner)
            }
        }
    }

    /// What `principalID` may do with the book through a token that may be limited to some books (`tokenBooks`;
    /// `nil` for all of its principal's), or `nil` when it may not know the book exists (the same answer as for a
    /// book that does not exist or is outside the token's books).
    public func access(principalID: String, bookID: String, tokenBooks: [String]?) async throws -> (
        book: AddressBook, access: BookAccess
    )? {
        if let tokenBooks, !tokenBooks.contains(bookID) { return nil }
        return try await readByKey { db in try Self.access(db, principalID: principalID, bookID: bookID) }
    }

    static func access(_ db: Database, principalID: String, bookID: String) throws -> (
        book: AddressBook, access: BookAccess
    )? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(bookColumns), CASE WHEN ownerId = ?1 THEN 'owner'
                    ELSE (SELECT access FROM bookGrant WHERE bookId = ?2 AND principalId = ?1) END
                    FROM addressBook WHERE id = ?2
                    """, arguments: [principalID, bookID]),
            let text = row[4] as String?, let access = BookAccess(rawValue: text)
        else { return nil }
        return (book(row), access)
    }

    /// The book with this id, whoever owns it (for the CLI and the pool; requests go through ``access``).
    public func book(id: String) async throws -> AddressBook? {
        try await readByKey { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.bookColumns) FROM addressBook WHERE id = ?", arguments: [id])
                .map(Self.book)
        }
    }

    /// Every book, for the CLI and tools.
    public func allBooks() async throws -> [AddressBook] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.bookColumns) FROM addressBook ORDER BY createdAt, id")
                .map(Self.book)
        }
    }

    /// Renames a book; owners only.
    public func renameBook(id: String, to name: String, by principalID: String) async throws -> AddressBook {
        try CatalogNames.validate(name, what: "book")
        return try await write { db in
            var book = try Self.owned(db, bookID: id, by: principalID)
            try db.execute(sql: "UPDATE addressBook SET name = ? WHERE id = ?", arguments: [name, id])
            book.name = name
            return book
        }
    }

    /// Deletes a book from the catalog (owners only; not a principal's default book) and returns it, so the caller
    /// deletes its file. Its identifier is never used again.
    public func deleteBook(id: String, by principalID: String) async throws -> AddressBook {
        try await write { db in
            let book = try Self.owned(db, bookID: id, by: principalID)
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM principal WHERE defaultBookId = ?", arguments: [id]) == true {
                throw StoreError(.forbidden, "A principal's default address book cannot be deleted.", affected: [id])
            }
            try Self.retire(db, [id])
            try db.execute(sql: "DELETE FROM addressBook WHERE id = ?", arguments: [id])
            return book
        }
    }

    /// The book, when `principalID` owns it. - Throws: `recordDoesNotExist` when the principal may not know of it,
    /// `forbidden` when it may use it but not manage it.
    static func owned(_ db: Database, bookID: String, by principalID: String) throws -> AddressBook {
        guard let (book, access) = try access(db, principalID: principalID, bookID: bookID) else {
            throw StoreError.noSuchBook(bookID)
        }
        guard access == .owner else {
            throw StoreError(.forbidden, "Only the book's owner may do this.", affected: [bookID])
        }
        return book
    }
}
