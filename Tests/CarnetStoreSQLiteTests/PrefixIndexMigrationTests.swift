import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

@Suite("Migration v5: four-character prefix index")
struct PrefixIndexMigrationTests {
    /// Names whose four-letter prefixes start several terms ("müll": Müller, Müllner, Mulligan…), names a
    /// four-letter word matches whole, marks the folding drops, and enough contacts that the rebuild and the
    /// searches read past one page.
    static func request() -> SaveRequest {
        var request = SaveRequest(transactionAuthor: "old")
        let family = [
            "Müller", "Müllner", "Mulligan", "Mullins", "Mull", "Muller-Lüdenscheidt", "Nguyễn", "Smith", "Anand",
        ]
        let given = ["Anna", "Annabel", "Annette", "Jörg", "Đức", "José", "Mull", "Bob"]
        for index in 0..<400 {
            var contact = Make.person(given[index % given.count], family[index % family.count])
            contact.middleName = index % 7 == 0 ? "Thị" : ""
            request.add(contact)
        }
        request.add(Make.person("", "", organization: "Müllabfuhr GmbH"))
        request.add(Make.person("Zoë", "Ångström"))
        request.add(Make.person("", ""))
        return request
    }

    /// The contacts "mull" finds: Müller…Muller-Lüdenscheidt, the given name Mull, Müllabfuhr GmbH.
    static let mullCount = (0..<400).filter { $0 % 9 < 6 || $0 % 8 == 6 }.count + 1

    /// Four-letter words (the prefix index's new length), with shorter and longer words for comparison.
    static let queries = [
        "müll", "mull", "MULL", "anna", "anne", "nguy", "smit", "jorg", "duc", "mull ann", "anna müll", "angs",
        "mulli", "mülle", "m", "mu", "mül", "zzzz", "muel",
    ]

    static func prefixOptions(_ db: Database) throws -> [String: String] {
        var options: [String: String] = [:]
        for table in ["contactNameFamily", "contactNameGiven"] {
            let sql =
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table]) ?? ""
            let option =
                sql.range(of: "prefix = '[0-9 ]*'", options: .regularExpression).map { String(sql[$0]) } ?? "none"
            options[table] = option
        }
        return options
    }

    /// A store at v4 holding `request`'s records, written by the save path; returns it opened as a `SQLiteStore`,
    /// which migrates it to v5.
    static func migratedV4Store(_ kind: StoreKind, _ request: SaveRequest, directory: URL) throws -> SQLiteStore {
        let earlier = try EarlierStore(kind, at: "v4", directory: directory, request: request)
        let writer = earlier.writer
        try writer.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1", "v2", "v3", "v4"])
            #expect(
                try prefixOptions(db) == [
                    "contactNameFamily": "prefix = '1 2 3'", "contactNameGiven": "prefix = '1 2 3'",
                ])
            #expect(
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM contactNameFamily WHERE contactNameFamily MATCH '\"mull\"*'")
                    == mullCount)
        }
        return try earlier.open()
    }

    static func integrityCheck(_ db: Database) throws {
        for table in ["contactNameFamily", "contactNameGiven"] {
            try db.execute(sql: "INSERT INTO \(table) (\(table), rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test(
        "A store made before v5 gets the 4-character prefix index and finds what a new store finds",
        arguments: StoreKind.sqlite)
    func migrate(kind: StoreKind) async throws {
        let request = Self.request()
        let fresh = try await StoreFixture(kind)
        try await fresh.sqliteStore.execute(request)
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.migratedV4Store(kind, request, directory: directory)

        let newOptions = ["contactNameFamily": "prefix = '1 2 3 4'", "contactNameGiven": "prefix = '1 2 3 4'"]
        for candidate in [store, try fresh.sqliteStore] {
            try await candidate.writer.read { db throws in
                #expect(
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                        == Migrations.migrator.migrations)
                #expect(try Self.prefixOptions(db) == newOptions)
                let sql = try String.fetchAll(
                    db,
                    sql: """
                        SELECT sql FROM sqlite_master WHERE name IN ('contactNameFamily_terms', 'contactNameGiven_terms') ORDER BY name
                        """)
                #expect(
                    sql == [
                        "CREATE VIRTUAL TABLE contactNameFamily_terms USING fts5vocab(contactNameFamily, row)",
                        "CREATE VIRTUAL TABLE contactNameGiven_terms USING fts5vocab(contactNameGiven, row)",
                    ])
            }
            // FTS5's integrity check compares every prefix index with the terms (it throws on a mismatch).
            try await candidate.writer.write(Self.integrityCheck)
        }
        let migrated = try await store.writer.read(DerivedRows.read)
        #expect(migrated.contacts.count == request.operations.count)
        #expect(migrated == (try await fresh.sqliteStore.writer.read(DerivedRows.read)))

        try await expectSameNameSearches(store, as: fresh.sqliteStore, queries: Self.queries)
        let mull = try await walkNameSearch(store, "müll", order: .familyName, size: 50)
        #expect(mull.ids.count == Self.mullCount)
        #expect(mull.names.first == "Mull Anand")
        #expect(mull.names.contains("Müllabfuhr GmbH") == false && mull.names.contains(""))
        #expect(try await walkNameSearch(store, "mullabf", order: .familyName, size: 50).names == [""])
        #expect(try await walkNameSearch(store, "muel", order: .familyName, size: 50).ids.isEmpty)
        #expect(try await walkNameSearch(store, "angs", order: .givenName, size: 50).names == ["Zoë Ångström"])

        // Later saves change the migrated index exactly as they change a new store's.
        var edits = SaveRequest(transactionAuthor: "new")
        for id in mull.ids.prefix(20) { edits.delete(contactWithIdentifier: id) }
        var rename = Contact(updating: mull.ids[20])
        rename.familyName = "Mulder"
        edits.update(rename)
        edits.add(Make.person("Mulla", "Nasreddin"))
        try await expectSameAfterSaves(
            edits, on: store, as: fresh.sqliteStore, queries: ["mull", "muld", "nasr", "mulla"],
            sizes: [7, 50, 1000])
        #expect(try await walkNameSearch(store, "muld", order: .familyName, size: 50).ids == [mull.ids[20]])
        try await store.close()
    }

    @Test("Four-letter words read the prefix index; longer ones the terms they start")
    func matchExpression() async throws {
        let fixture = try await StoreFixture(.inMemory)
        try await fixture.sqliteStore.execute(Self.request())
        try await fixture.sqliteStore.writer.read { db throws in
            #expect(try NameIndex.match(db, .family, ["mull"]) == "\"mull\"*")
            #expect(try NameIndex.match(db, .family, ["mul", "anna"]) == "\"mul\"* AND \"anna\"*")
            #expect(try NameIndex.match(db, .family, ["mulli"]) == "(\"mulligan\" OR \"mullins\")")
            #expect(try NameIndex.match(db, .family, ["zzzzz"]) == nil)
        }
    }

    @Test("Migrating an empty store to v5")
    func emptyStore() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v4")
        try Migrations.migrator.migrate(queue)
        try queue.read { db throws in
            #expect(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").last
                    == Migrations.migrator.migrations.last)
            #expect(try Self.prefixOptions(db)["contactNameFamily"] == "prefix = '1 2 3 4'")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM contactNameFamily_terms") == 0)
        }
    }
}
