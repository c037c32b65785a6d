import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// The folding before v4, kept here to write stores as the old code did: the table stopped at U+024F, and one scalar
/// outside it sent the whole string to Foundation, which keeps "đ", "ł", "ø".
enum LegacyFolding {
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                let value = UInt8(scalar.value)
                scalars.append(Unicode.Scalar((0x41...0x5A).contains(value) ? value + 0x20 : value))
            } else if (0x300...0x36F).contains(scalar.value) {
                continue
            } else if let folded = latinFolding[scalar.value] {
                scalars.append(contentsOf: folded.unicodeScalars)
            } else {
                return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
        }
        return String(scalars)
    }

    private static let latinFolding: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for value in UInt32(0xC0)...0x24F {
            guard let scalar = Unicode.Scalar(value), value != 0xD7, value != 0xF7 else { continue }
            var folded = String(Character(scalar)).folding(
                options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            folded = strokeless[folded] ?? folded
            table[value] = folded
        }
        return table
    }()

    private static let strokeless: [String: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ŀ": "l",
        "ŧ": "t", "ƀ": "b", "ð": "d",
    ]

    static func sortKey(primary: String, secondary: String, middle: String, organization: String) -> String {
        let parts = [primary, secondary, middle].map(fold).filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
        let org = fold(organization)
        return org.isEmpty ? "\u{FFFD}" : org
    }

    /// Rewrites everything the store derived from folded names as the old folding had it: sort keys, name-index
    /// rowids and rows, group sort names. The records themselves stay as the save path wrote them.
    static func rewrite(_ db: Database) throws {
        for table in ["contactNameFamily", "contactNameGiven"] {
            try db.execute(sql: "INSERT INTO \(table) (\(table)) VALUES ('delete-all')")
        }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, givenName, familyName, middleName, organizationName,
                       \(ContactKey.searchableNameKeys.map(\.rawValue).joined(separator: ", "))
                FROM contact ORDER BY rowid
                """)
        for row in rows {
            let rowid: Int64 = row[0]
            let (given, family, middle, organization): (String, String, String, String) = (
                row[1], row[2], row[3], row[4]
            )
            let document = fold(
                (0..<ContactKey.searchableNameKeys.count).map { row[5 + $0] as String }.filter { !$0.isEmpty }
                    .joined(separator: " "))
            let sortGiven = sortKey(primary: given, secondary: family, middle: middle, organization: organization)
            let sortFamily = sortKey(primary: family, secondary: given, middle: middle, organization: organization)
            let ftsGiven = try NameIndex.rowid(sortKey: sortGiven, contactRowid: rowid)
            let ftsFamily = try NameIndex.rowid(sortKey: sortFamily, contactRowid: rowid)
            try db.execute(
                sql: "UPDATE contact SET sortGiven = ?, sortFamily = ?, ftsGiven = ?, ftsFamily = ? WHERE rowid = ?",
                arguments: [sortGiven, sortFamily, ftsGiven, ftsFamily, rowid])
            try db.execute(
                sql: "INSERT INTO contactNameGiven (rowid, names) VALUES (?, ?)", arguments: [ftsGiven, document])
            try db.execute(
                sql: "INSERT INTO contactNameFamily (rowid, names) VALUES (?, ?)", arguments: [ftsFamily, document])
        }
        for row in try Row.fetchAll(db, sql: "SELECT rowid, name FROM \"group\"") {
            try db.execute(
                sql: "UPDATE \"group\" SET sortName = ? WHERE rowid = ?", arguments: [fold(row[1]), row[0] as Int64])
        }
    }
}

/// Everything a store derives from folded names, in a comparable form: the contacts' keys, the name index's terms
/// with the rows each matches (the whole content of a `detail = none` index), the groups' sort names.
struct DerivedRows: Equatable, Sendable, CustomStringConvertible {
    var contacts: [String]
    var groups: [String]
    var index: [String: [String: [Int64]]]

    static func read(_ db: Database) throws -> DerivedRows {
        var index: [String: [String: [Int64]]] = [:]
        for table in ["contactNameFamily", "contactNameGiven"] {
            for term in try String.fetchAll(db, sql: "SELECT term FROM \(table)_terms ORDER BY term") {
                index[table, default: [:]][exact(term)] = try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid",
                    arguments: ["\"\(term)\""])
            }
        }
        func lines(_ sql: String) throws -> [String] {
            try Row.fetchAll(db, sql: sql).map { row in
                exact(row.databaseValues.map(\.description).joined(separator: " | "))
            }
        }
        return DerivedRows(
            contacts: try lines(
                "SELECT rowid, id, sortGiven, sortFamily, ftsGiven, ftsFamily FROM contact ORDER BY rowid"),
            groups: try lines("SELECT rowid, id, sortName FROM \"group\" ORDER BY rowid"),
            index: index)
    }

    var description: String { "contacts: \(contacts)\ngroups: \(groups)\nindex: \(index)" }

    /// Text with every scalar past ASCII escaped, so two spellings Swift takes for equal (NFC and NFD) compare
    /// unequal, as the database's bytes do.
    static func exact(_ text: String) -> String { text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
}

@Suite("Migration v4: names refolded")
struct RefoldMigrationTests {
    /// The records of both stores: the names of the bug, names whose keys do not change, and enough generated
    /// contacts that the migration reads its contacts in several batches.
    static func request() -> SaveRequest {
        var request = SaveRequest(transactionAuthor: "old")
        let named = [
            Make.person("Đức", "Nguyễn"), Make.person("Thảo", "Đặng"), Make.person("Minh", "Đỗ"),
            Make.person("Amy", "Dale"), Make.person("Bob", "Evans"), Make.person("Zoe", "Zed"),
            Make.person("Łukasz", "Żółć"), Make.person("Søren", "Æbelø"), Make.person("Ελένη", "Παπαδοπούλου"),
            Make.person("", "", organization: "Công ty Đại Phát"), Make.person("", ""),
        ]
        for contact in named { request.add(contact) }
        let given = ["Anh", "Bảo", "Châu", "Giang", "Hải", "Khoa", "Linh", "Quang"]
        let family = ["Phạm", "Trần", "Lê", "Võ", "Hồ", "Smith", "Müller"]
        for index in 0..<(FoldedKeys.batchSize + 250) {
            var contact = Make.person(given[index % given.count], family[index % family.count])
            contact.middleName = index % 3 == 0 ? "Thị" : ""
            request.add(contact)
        }
        let colleagues = Group(name: "Đồng nghiệp")
        request.add(colleagues)
        request.add(Group(name: "Bạn bè"))
        request.add(Group(name: "Zebra"))
        request.addMember(named[0].identifier, toGroup: colleagues.identifier)
        return request
    }

    /// A store at v3 holding `request`'s records as the old code wrote them; returns the store after opening it,
    /// which migrates it to v4.
    static func migratedLegacyStore(_ kind: StoreKind, _ request: SaveRequest, directory: URL) throws -> SQLiteStore {
        let earlier = try EarlierStore(
            kind, at: "v3", directory: directory, request: request, rewrite: LegacyFolding.rewrite)
        let writer = earlier.writer
        // The old store has the bug: "duc" finds nothing, "Đặng" sorts after "z".
        try writer.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1", "v2", "v3"])
            #expect(
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM contactNameFamily WHERE contactNameFamily MATCH '\"duc\"*'") == 0)
            let dang = try String.fetchOne(db, sql: "SELECT sortFamily FROM contact WHERE familyName = 'Đặng'")
            #expect(dang == "đang\u{1}thao")
            #expect(dang! > "zed")
        }
        return try earlier.open()
    }

    func search(_ store: SQLiteStore, _ predicate: ContactPredicate, order: ContactSortOrder = .familyName) async throws
        -> [String]
    {
        Make.names(
            try await store.contacts(
                ContactFetchRequest(
                    predicate: predicate, keysToFetch: [.givenName, .familyName], sortOrder: order,
                    includeTotalCount: true)))
    }

    @Test(
        "A store written with the old folding is refolded: search, sort, and every derived row as a new store's",
        arguments: StoreKind.sqlite)
    func refold(kind: StoreKind) async throws {
        let request = Self.request()
        let fresh = try await StoreFixture(kind)
        try await fresh.sqliteStore.execute(request)
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.migratedLegacyStore(kind, request, directory: directory)

        #expect(
            try await store.writer.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
                == Migrations.migrator.migrations)
        let migrated = try await store.writer.read(DerivedRows.read)
        let expected = try await fresh.sqliteStore.writer.read(DerivedRows.read)
        #expect(migrated.contacts.count == request.operations.count - 4)
        #expect(migrated == expected)

        for order in [ContactSortOrder.none, .givenName, .familyName] {
            #expect(try await search(store, .matchingName("duc"), order: order) == ["Đức Nguyễn"])
            #expect(try await search(store, .matchingName("nguyen"), order: order) == ["Đức Nguyễn"])
            #expect(try await search(store, .matchingName("duc ng"), order: order) == ["Đức Nguyễn"])
            #expect(try await search(store, .matchingName("minh do"), order: order) == ["Minh Đỗ"])
            #expect(try await search(store, .matchingName("lukasz zolc"), order: order) == ["Łukasz Żółć"])
            #expect(try await search(store, .matchingName("soren aeb"), order: order) == ["Søren Æbelø"])
        }
        #expect(try await search(store, .matchingName("cong ty dai")) == [""])
        let ids = Dictionary(
            uniqueKeysWithValues: try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName("d"), keysToFetch: [.familyName], page: .first(1000))
            ).contacts.map { ($0.familyName, $0.identifier) })
        let bob = try await store.contacts(ContactFetchRequest(predicate: .matchingName("evans"), keysToFetch: []))
            .contacts[0].identifier
        #expect(
            try await search(store, .withIdentifiers([ids["Dale"]!, ids["Đặng"]!, ids["Đỗ"]!, bob])) == [
                "Amy Dale", "Thảo Đặng", "Minh Đỗ", "Bob Evans",
            ])
        #expect(try await store.groups().map(\.name) == ["Bạn bè", "Đồng nghiệp", "Zebra"])

        // The index holds exactly the text the save path folds: later renames and deletes remove what they should,
        // and both stores stay alike.
        var edits = SaveRequest(transactionAuthor: "new")
        var rename = Contact(updating: ids["Nguyễn"]!)
        rename.givenName = "Hùng"
        edits.update(rename)
        edits.delete(contactWithIdentifier: ids["Đặng"]!)
        edits.delete(contactWithIdentifier: ids["Đỗ"]!)
        try await expectSameAfterSaves(edits, on: store, as: fresh.sqliteStore, queries: ["duc", "hung ng", "minh"])
        #expect(try await search(store, .matchingName("duc")) == [])
        #expect(try await search(store, .matchingName("hung ng")) == ["Hùng Nguyễn"])
        #expect(try await search(store, .matchingName("minh")) == [])
        try await store.close()
    }

    @Test("Refolding a store written with the current folding changes nothing", arguments: StoreKind.sqlite)
    func refoldIsIdempotent(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sqliteStore.execute(Self.request())
        let before = try await fixture.sqliteStore.writer.read(DerivedRows.read)
        try await fixture.sqliteStore.writer.write { try FoldedKeys.recompute($0) }
        #expect(try await fixture.sqliteStore.writer.read(DerivedRows.read) == before)
    }

    @Test("Refolding an empty store changes nothing")
    func emptyStore() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v3")
        try Migrations.migrator.migrate(queue)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contact") } == 0)
        #expect(
            try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }.last
                == Migrations.migrator.migrations.last)
    }
}
