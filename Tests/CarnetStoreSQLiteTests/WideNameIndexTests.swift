import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// Migration v6 and the layout it moves to: seven sort-key characters and 28 bits of contact rowid.
@Suite("Migration v6: name-index rowids for 2²⁸ contacts")
struct WideNameIndexTests {
    /// v5's migration test records, plus buckets that hold more than `OrderedNameSearch.largeBucket` matches in the
    /// new layout ("schmidt" with "Schmidtke", "hernand") and in both ("muller" and the separator).
    static func request() -> SaveRequest {
        var request = PrefixIndexMigrationTests.request()
        let given = ["Anna", "Bert", "Zoë", "Jo", "", "Mia", "Ägidius"]
        let family = ["Schmidt", "Schmidtke", "Hernández", "Hernandez", "Müller"]
        for index in 0..<350 {
            request.add(Make.person(given[index % given.count], family[index % family.count]))
        }
        return request
    }

    static let queries =
        PrefixIndexMigrationTests.queries + ["schm", "schmidt", "schmidtk", "hern", "hernandez", "mia mül", "a"]

    /// A store at v5 holding `request`'s records with v5's index rowids (`EarlierNameIndexLayout.eightCharacters`), in the rows v5's
    /// rebuild writes; returns it opened as a `SQLiteStore`, which migrates it to v6, and the cursors a v5 store
    /// gave for the 7th and 300th contact of each name order.
    static func migratedV5Store(_ kind: StoreKind, _ request: SaveRequest, directory: URL) throws
        -> (store: SQLiteStore, cursors: [(order: ContactSortOrder, cursor: ContactCursor)])
    {
        let earlier = try EarlierStore(
            kind, at: "v5", directory: directory, request: request,
            rewrite: EarlierNameIndexLayout.eightCharacters.rewrite)
        var cursors: [(order: ContactSortOrder, cursor: ContactCursor)] = []
        try earlier.writer.read { db throws in
            #expect(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == [
                    "v1", "v2", "v3", "v4", "v5",
                ])
            // Every index row is in the old layout, which differs from the new for every sort key of eight bytes or more.
            let old = try DerivedRows.read(db)
            let given = Set(try Int64.fetchAll(db, sql: "SELECT ftsGiven FROM contact WHERE \(named)"))
            let family = Set(try Int64.fetchAll(db, sql: "SELECT ftsFamily FROM contact WHERE \(named)"))
            #expect(Set(old.index["contactNameGiven", default: [:]].values.joined()) == given)
            #expect(Set(old.index["contactNameFamily", default: [:]].values.joined()) == family)
            #expect(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM contact WHERE length(CAST(sortFamily AS BLOB)) >= 8")!
                    > 700)
            for row in try Row.fetchAll(db, sql: "SELECT rowid, sortFamily, ftsFamily FROM contact") {
                #expect(
                    row[2] as Int64
                        == EarlierNameIndexLayout.eightCharacters.rowid(sortKey: row[1], contactRowid: row[0]))
                let sortKey: String = row[1]
                // Shorter keys differ too when a character that shares its code comes first (v12's buckets).
                if sortKey.utf8.count >= 8 {
                    #expect(row[2] as Int64 != (try NameIndex.rowid(sortKey: sortKey, contactRowid: row[0])))
                }
            }
            for (order, column) in [(ContactSortOrder.familyName, "sortFamily"), (.givenName, "sortGiven")] {
                for offset in [6, 299] {
                    let row = try Row.fetchOne(
                        db,
                        sql: "SELECT rowid, id, \(column) FROM contact ORDER BY \(column), id LIMIT 1 OFFSET \(offset)")!
                    cursors.append(
                        (order, ContactCursor(order: order, rowid: row[0], identifier: row[1], sortKey: row[2])))
                }
            }
        }
        return (try earlier.open(), cursors)
    }

    /// The contacts with an indexed name (the tests' contacts have no other name keys); the others have no term.
    static let named = "givenName || middleName || familyName || nickname || organizationName != ''"

    /// Each contact's index rowids are its sort keys' buckets above its rowid, and the index holds them.
    static func checkLayout(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT rowid, sortGiven, sortFamily, ftsGiven, ftsFamily FROM contact") {
            let rowid: Int64 = row[0]
            #expect(row[3] as Int64 == NameIndex.bucket(row[1]) | rowid)
            #expect(row[4] as Int64 == NameIndex.bucket(row[2]) | rowid)
            #expect((row[4] as Int64) & NameIndex.contactMask == rowid && (row[4] as Int64) > 0)
        }
        let index = try DerivedRows.read(db).index
        #expect(
            Set(index["contactNameGiven", default: [:]].values.joined())
                == Set(try Int64.fetchAll(db, sql: "SELECT ftsGiven FROM contact WHERE \(named)")))
        #expect(
            Set(index["contactNameFamily", default: [:]].values.joined())
                == Set(try Int64.fetchAll(db, sql: "SELECT ftsFamily FROM contact WHERE \(named)")))
    }

    @Test(
        "A store made before v6 gets the new rowids and finds what a new store finds; its cursors still work",
        arguments: StoreKind.sqlite)
    func migrate(kind: StoreKind) async throws {
        let request = Self.request()
        let fresh = try await StoreFixture(kind)
        try await fresh.sqliteStore.execute(request)
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, cursors) = try Self.migratedV5Store(kind, request, directory: directory)

        for candidate in [store, try fresh.sqliteStore] {
            try await candidate.writer.read { db throws in
                #expect(
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                        == Migrations.migrator.migrations)
                #expect(
                    try PrefixIndexMigrationTests.prefixOptions(db)
                        == ["contactNameFamily": "prefix = '1 2 3 4'", "contactNameGiven": "prefix = '1 2 3 4'"])
            }
            try await candidate.writer.write(PrefixIndexMigrationTests.integrityCheck)
        }
        try await store.writer.read(Self.checkLayout)
        let migrated = try await store.writer.read(DerivedRows.read)
        #expect(migrated.contacts.count == request.operations.count)
        #expect(migrated == (try await fresh.sqliteStore.writer.read(DerivedRows.read)))

        try await expectSameNameSearches(store, as: fresh.sqliteStore, queries: Self.queries)
        // A cursor a v5 store gave holds no index rowid: it reads on as a new store's cursor does, in both stores
        // (each given the position as its own cursor: a cursor is bound to its book).
        for (order, position) in cursors {
            for query in ["a", "schm", "mull", "m"] {
                let found = try await walkNameSearch(
                    store, query, order: order, size: 9, after: position.encoded(storeID: store.storeID))
                let other = try fresh.sqliteStore
                #expect(
                    found.ids
                        == (try await walkNameSearch(
                            other, query, order: order, size: 9, after: position.encoded(storeID: other.storeID))).ids)
                let all = try await walkNameSearch(fresh.sqliteStore, query, order: order, size: 1000)
                #expect(all.ids.reversed().starts(with: found.ids.reversed()), "\(query) \(order)")
            }
        }

        var edits = SaveRequest(transactionAuthor: "new")
        let schmidts = try await walkNameSearch(store, "schmidt", order: .familyName, size: 50).ids
        for id in schmidts.prefix(30) { edits.delete(contactWithIdentifier: id) }
        var rename = Contact(updating: schmidts[40])
        rename.familyName = "Schmidbauer"
        edits.update(rename)
        edits.add(Make.person("Anna", "Schmidtkunz"))
        try await expectSameAfterSaves(
            edits, on: store, as: fresh.sqliteStore,
            queries: ["schm", "schmidt", "schmidb", "anna schmidtk"])
        #expect(try await walkNameSearch(store, "schmidb", order: .familyName, size: 50).ids == [schmidts[40]])
        try await store.close()
    }

    @Test("Migrating an empty store to v6")
    func emptyStore() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v5")
        try Migrations.migrator.migrate(queue)
        try queue.read { db throws in
            #expect(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").last
                    == Migrations.migrator.migrations.last)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM contactNameFamily_terms") == 0)
        }
    }

    /// Gives a contact another rowid, as if the store had added that many contacts before it: its index rows are
    /// removed and written again for the new rowid, by the save path's functions.
    static func move(_ store: SQLiteStore, _ contact: Contact, to rowid: Int64) async throws {
        try await store.writer.write { db in
            let row = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT rowid, ftsGiven, ftsFamily, sortGiven, sortFamily FROM contact WHERE id = ?",
                    arguments: [contact.identifier]))
            let names = ContactIndexing.names(contact)
            try NameIndex.delete(db, given: row[1], family: row[2], names: names)
            let ftsGiven = try NameIndex.rowid(sortKey: row[3], contactRowid: rowid)
            let ftsFamily = try NameIndex.rowid(sortKey: row[4], contactRowid: rowid)
            try db.execute(
                sql: "UPDATE contact SET rowid = ?, ftsGiven = ?, ftsFamily = ? WHERE rowid = ?",
                arguments: [rowid, ftsGiven, ftsFamily, row[0] as Int64])
            try NameIndex.insert(db, given: ftsGiven, family: ftsFamily, names: names)
        }
    }

    @Test("Contacts past the old limit of 2²³ are added, found and sorted", arguments: StoreKind.sqlite)
    func pastTheOldLimit(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try fixture.sqliteStore
        let early = [
            Make.person("Anna", "Schmidt"), Make.person("Zoë", "Ångström"), Make.person("Bob", "Müller"),
            Make.person("Mia", "Zorn"), Make.person("", "", organization: "Schmidt AG"),
        ]
        try await store.add(early)
        let placeholder = Make.person("Old", "Placeholder")
        try await store.add([placeholder])
        try await Self.move(store, placeholder, to: (1 << 23) + 100)

        let given = ["Anna", "Bert", "Zoë", "Jo", "Mia", "Ägidius", "Old"]
        let family = ["Schmidt", "Schmidtke", "Müller", "Abel", "Zorn", "Schmid"]
        let late = (0..<140).map { Make.person(given[$0 % given.count], family[$0 % family.count]) }
        try await store.add(late)
        let everyone = (early + [placeholder] + late).map(\.identifier)

        try await store.writer.read { db throws in
            let rowids = try Int64.fetchAll(
                db, sql: "SELECT rowid FROM contact WHERE id = ?", arguments: [late[0].identifier])
            #expect(rowids == [(1 << 23) + 101])
            #expect(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM contact WHERE rowid > \(1 << 23)") == late.count + 1)
            try Self.checkLayout(db)
        }
        try await store.writer.write(PrefixIndexMigrationTests.integrityCheck)

        for order in [ContactSortOrder.familyName, .givenName] {
            for query in ["schm", "schmidt", "mül", "a", "zorn", "anna schm", "old", "placeholder", "m"] {
                let expected = try await expectPagesMatchGeneralPath(
                    store, query, order: order, everyone: everyone, sizes: [7, 1000])
                #expect(!expected.isEmpty, "\(query)")
            }
        }
        #expect(
            try await walkNameSearch(store, "placeholder", order: .familyName, size: 10).ids == [placeholder.identifier]
        )
        let schmidts = try await walkNameSearch(store, "schmidt", order: .familyName, size: 1000).ids
        #expect(
            schmidts.contains(early[0].identifier)
                && schmidts.count == late.filter { $0.familyName.hasPrefix("Schmidt") }.count + 2)

        // Updated and deleted above the old limit, the index follows.
        var edits = SaveRequest()
        var rename = Contact(updating: late[0].identifier)
        rename.familyName = "Aaberg"
        edits.update(rename)
        edits.delete(contactWithIdentifier: late[1].identifier)
        edits.delete(contactWithIdentifier: placeholder.identifier)
        try await store.execute(edits)
        try await store.writer.read(Self.checkLayout)
        try await store.writer.write(PrefixIndexMigrationTests.integrityCheck)
        #expect(try await walkNameSearch(store, "aab", order: .familyName, size: 10).ids == [late[0].identifier])
        #expect(try await walkNameSearch(store, "placeholder", order: .familyName, size: 10).ids.isEmpty)
        #expect(
            try await walkNameSearch(store, "schmidt", order: .familyName, size: 1000).ids
                == schmidts.filter { $0 != late[0].identifier && $0 != late[1].identifier })
        try await store.close()
    }

    @Test(
        "The last contact rowid the layout holds is 2²⁸ − 1; the next add fails cleanly", arguments: StoreKind.sqlite)
    func newLimit(kind: StoreKind) async throws {
        #expect(NameIndex.contactMask == (1 << 28) - 1)
        let fixture = try await StoreFixture(kind)
        let store = try fixture.sqliteStore
        let placeholder = Make.person("Zed", "Placeholder")
        try await store.add([Make.person("Anna", "Abel"), placeholder])
        try await Self.move(store, placeholder, to: NameIndex.contactMask - 1)
        let last = Make.person("Anna", "Schmidt")
        try await store.add([last])
        #expect(
            try await store.writer.read {
                try Int64.fetchOne($0, sql: "SELECT rowid FROM contact WHERE id = ?", arguments: [last.identifier])
            }
                == NameIndex.contactMask)
        #expect(try await walkNameSearch(store, "anna", order: .familyName, size: 1).ids.count == 2)
        #expect(try await walkNameSearch(store, "anna", order: .givenName, size: 10).ids.last == last.identifier)
        #expect(try await walkNameSearch(store, "schm", order: .familyName, size: 10).ids == [last.identifier])
        #expect(
            try await walkNameSearch(store, "placeholder", order: .familyName, size: 10).ids == [placeholder.identifier]
        )

        let error = await #expect(throws: StoreError.self) { try await store.add([Make.person("One", "Toomany")]) }
        #expect(error?.code == .validationFailed)
        #expect(try await store.contactCount() == 3)
        #expect(try await walkNameSearch(store, "toomany", order: .familyName, size: 10).ids.isEmpty)
        try await store.writer.write(PrefixIndexMigrationTests.integrityCheck)
        #expect(throws: StoreError.self) { try NameIndex.rowid(sortKey: "a", contactRowid: NameIndex.contactMask + 1) }
        try await store.close()
    }
}
