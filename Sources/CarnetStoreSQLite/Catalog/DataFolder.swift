import CarnetStore
import Foundation

/// A Carnet data folder: the catalog (`catalog.sqlite`) and the address books' databases beside it.
///
/// The admin principal's default book is `carnet.sqlite`, the single store of earlier versions: a folder of that
/// layout is upgraded in place on first open (its tokens become the admin's, its identifiers and history tokens
/// stay valid), and a new folder gets the same layout.
public struct DataFolder: StoreBackend {
    public let directory: String
    /// The catalog with its own type, for this backend's tools and tests.
    public let sqliteCatalog: SQLiteCatalog
    /// The pool of open books with its own type.
    public let bookStores: BookStores

    public var catalog: any CatalogStore { sqliteCatalog }
    public var books: any AddressBookStores { bookStores }

    /// The admin principal's default book, relative to the folder.
    public static let adminBookFileName = "carnet.sqlite"
    public static let catalogFileName = "catalog.sqlite"

    /// Whether `directory` holds a data folder: its catalog, or (before the catalog, upgraded on open) the book.
    public static func exists(directory: String) -> Bool {
        [catalogFileName, adminBookFileName].contains {
            FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
    }

    /// Opens the folder, creating it, its catalog and the admin principal when missing.
    /// - Parameter openBooks: the most books kept open when idle; `nil` for ``BookStores/defaultCapacity``. The
    ///   pool also stays within the file descriptors the process may open (``FileDescriptorBudget/forBooks``).
    public static func open(
        directory: String, configuration: StoreConfiguration = StoreConfiguration(), openBooks: Int? = nil
    ) async throws -> DataFolder {
        // Foundation's own error said "a file with the same name already exists", in a dump of its user info.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw StoreError(
                .validationFailed, "\(directory) is a file, not a data folder.", keyPaths: ["data"])
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try refuseLostCatalog(directory)
        let catalog = try SQLiteCatalog.open(
            path: (directory as NSString).appendingPathComponent(catalogFileName), configuration: configuration)
        let created = try await createAdmin(catalog)
        let legacyBook = try await catalog.read { db in
            try String.fetchOne(
                db, sql: "SELECT id FROM addressBook WHERE fileName = ?", arguments: [Self.adminBookFileName])
        }
        let folder = DataFolder(
            directory: directory, sqliteCatalog: catalog,
            bookStores: BookStores(
                directory: directory, configuration: configuration, capacity: openBooks, legacyBookID: legacyBook,
                fileLedger: catalog))
        try await catalog.settleBookFiles(in: directory)
        if let created { try await folder.adoptTokens(of: created) }
        try await folder.removeRetiredBookFiles()
        return folder
    }

    /// Fails when the catalog is missing or empty while books are there: a new catalog would forget every
    /// principal, token, book and grant, and leave the books' files where nothing reaches them. (A folder of the
    /// single-store layout has `carnet.sqlite` and no `books/`: that one is upgraded.)
    private static func refuseLostCatalog(_ directory: String) throws {
        let folder = directory as NSString
        guard !BookFile.hasContent(folder.appendingPathComponent(catalogFileName)) else { return }
        let books =
            (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(BookStores.folderName))) ?? []
        let count = books.filter { $0.hasSuffix(".sqlite") }.count
        guard count > 0 else { return }
        throw StoreError(
            .storageFailure,
            "The catalog (\(catalogFileName)) is missing or empty, but books/ holds \(count) address books: restore "
                + "\(catalogFileName) from a copy of the data folder. Starting a new catalog would forget every "
                + "principal, token, book and grant.")
    }

    /// Creates the admin principal on first open, its default book in `carnet.sqlite`; `nil` if there was one.
    private static func createAdmin(_ catalog: SQLiteCatalog) async throws -> Principal? {
        guard try await catalog.principals().first(where: \.isAdmin) == nil else { return nil }
        // Checked again in the write: a server and a CLI command opening a new folder at once make one admin.
        return try await catalog.write { db -> Principal? in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM principal WHERE isAdmin = 1") == true { return nil }
            return try SQLiteCatalog.insertPrincipal(
                db, name: "admin", kind: .user, isAdmin: true, defaultBookFile: Self.adminBookFileName)
        }
    }

    /// Makes a single-book store's tokens the new admin's.
    private func adoptTokens(of admin: Principal) async throws {
        guard let bookID = admin.defaultBookID, let book = try await catalog.book(id: bookID) else { return }
        let tokens = try await bookStores.withSQLiteStore(book) { store in try await store.accessTokens() }
        for var token in tokens {
            token.principalID = admin.id
            try await catalog.insertAccessToken(token)
        }
    }

    /// Releases the catalog and every open book.
    public func close() async throws {
        await bookStores.closeAll()
        try sqliteCatalog.close()
    }
}
