import Foundation

/// A backend whose catalog and books can be copied out whole: the source of `carnet migrate-store`.
public protocol StoreMigrationSource: StoreBackend {
    /// The catalog as it stands.
    func exportCatalog() async throws -> CatalogArchive
    /// Hands the book's stored state to `write` in sections (``BookArchiveSection``), all from one consistent
    /// snapshot of the book, so saves made meanwhile are either wholly in the copy or not at all.
    func exportBook(_ book: AddressBook, to write: @Sendable (BookArchiveSection) async throws -> Void) async throws
}

/// A backend that can take such a copy: the target of `carnet migrate-store`.
public protocol StoreMigrationTarget: StoreBackend {
    /// Whether the backend holds nothing a copy would overwrite: no principal but a new admin, no record, no history
    /// (or only a copy that did not finish, which the next replaces).
    func isEmptyForMigration() async throws -> Bool
    /// Replaces the catalog with the archive's, in one transaction, and drops the records of the books it held.
    /// Until ``finishMigration()`` the backend refuses to serve: its other books are not there yet.
    func importCatalog(_ archive: CatalogArchive) async throws
    /// Marks the copy finished, once every book is copied and checked: the backend may be served.
    func finishMigration() async throws
    /// Fills the (catalogued, empty) book from the source's sections, in one transaction: the copy is whole or
    /// absent, never partial.
    func importBook(_ book: AddressBook, from source: any StoreMigrationSource) async throws
}

/// Copies a whole deployment from one backend to another: the catalog, then every book, each checked against its
/// source afterwards.
public enum StoreMigration {
    /// What a finished copy holds.
    public struct Report: Sendable, Hashable {
        public var principals: Int
        public var books: Int
        public var tokens: Int
    }

    /// What a copied book holds, read back from the target and compared with the source.
    public struct BookReport: Sendable, Hashable {
        public var contacts: Int
        public var groups: Int
        /// Where its history stands: a client's token for "now" is the same on both.
        public var historyToken: String
    }

    /// Copies `source` into `target`, which must be empty (``StoreMigrationTarget/isEmptyForMigration()``).
    /// `progress` hears of each book once it is copied and checked.
    /// - Throws: `validationFailed` for a target that is not empty; `storageFailure` when a copied book differs
    ///   from its source (a server still writing to the source: stop it and run the copy again). A copy that
    ///   stops before its end leaves a target that servers refuse and that the next copy starts over.
    public static func copy(
        from source: any StoreMigrationSource, to target: any StoreMigrationTarget,
        progress: @Sendable (AddressBook, BookReport) async -> Void = { _, _ in }
    ) async throws -> Report {
        guard try await target.isEmptyForMigration() else {
            throw StoreError(
                .validationFailed,
                "The target already holds principals, tokens, records or history; migrate-store copies into a new database only."
            )
        }
        let catalog = try await source.exportCatalog()
        try await target.importCatalog(catalog)
        for book in catalog.books {
            try await target.importBook(book, from: source)
            let copied = try await target.books.withStore(book, summary)
            guard try await source.books.withStore(book, summary) == copied else {
                throw StoreError(
                    .storageFailure,
                    "The copy of address book \(book.id) differs from its source, which changed meanwhile: stop the servers on it and run migrate-store again (it starts over).",
                    affected: [book.id])
            }
            await progress(book, copied)
        }
        // The catalog again, as the books were: a token revoked or a principal made meanwhile was missing from the
        // copy, which still finished (an outside tester's find: a revoked token worked again on the copy).
        guard try await source.exportCatalog() == catalog else {
            throw StoreError(
                .storageFailure,
                "The catalog changed during the copy (a token, principal, book or grant): stop the servers and "
                    + "commands on the data folder and run migrate-store again (it starts over).")
        }
        try await target.finishMigration()
        return Report(principals: catalog.principals.count, books: catalog.books.count, tokens: catalog.tokens.count)
    }

    @Sendable private static func summary(_ store: any ContactStore) async throws -> BookReport {
        BookReport(
            contacts: try await store.contactCount(), groups: try await store.groupCount(),
            historyToken: try await store.currentHistoryToken())
    }
}
