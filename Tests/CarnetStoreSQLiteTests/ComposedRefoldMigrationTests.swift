import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// The folding of v5–v13, which did not compose text first nor fold to a fixed point, and the
/// rows it gave, to write a store as that code did.
enum UncomposedFolding {
    static func fold(_ text: String) -> String { TextFolding.foldWithoutComposing(text) }

    static func sortKey(_ contact: Row, primary: String, secondary: String) -> String {
        let parts = [contact[primary] as String, contact[secondary], contact["middleName"]].map(fold).filter {
            !$0.isEmpty
        }
        if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
        let organization = fold(contact["organizationName"])
        return organization.isEmpty ? "\u{FFFD}" : organization
    }

    /// The indexed text of a contact's names: its folded words, as `NameIndex.indexedText` made them.
    static func indexedText(_ contact: Row) -> String {
        let names = ContactKey.searchableNameKeys.map { contact[$0.rawValue] as String }.filter { !$0.isEmpty }
        return fold(fold(names.joined(separator: " "))).split { !($0.isLetter || $0.isNumber) }.joined(separator: " ")
    }

    /// Rewrites what the store derived from folded names as v13 had it: the contacts' sort keys, index rowids and
    /// rows, the unified contacts' rows (under the name-preferred members' rowids) and the groups' sort names.
    static func rewrite(_ db: Database) throws {
        for order in NameIndex.Order.allCases {
            for table in [order.table, order.linkedTable] {
                try db.execute(sql: "INSERT INTO \(table) (\(table)) VALUES ('delete-all')")
            }
        }
        try db.execute(sql: "DELETE FROM contactLinkName")
        var text: [Int64: String] = [:]
        var rowids: [Int64: (given: Int64, family: Int64)] = [:]
        for contact in try Row.fetchAll(db, sql: "SELECT rowid, * FROM contact") {
            let rowid: Int64 = contact[0]
            let sortGiven = sortKey(contact, primary: "givenName", secondary: "familyName")
            let sortFamily = sortKey(contact, primary: "familyName", secondary: "givenName")
            let given = try NameIndex.rowid(sortKey: sortGiven, contactRowid: rowid)
            let family = try NameIndex.rowid(sortKey: sortFamily, contactRowid: rowid)
            text[rowid] = indexedText(contact)
            rowids[rowid] = (given, family)
            try db.execute(
                sql: "UPDATE contact SET sortGiven = ?, sortFamily = ?, ftsGiven = ?, ftsFamily = ? WHERE rowid = ?",
                arguments: [sortGiven, sortFamily, given, family, rowid])
            try db.execute(
                sql: "INSERT INTO contactNameGiven (rowid, names) VALUES (?, ?)", arguments: [given, text[rowid]])
            try db.execute(
                sql: "INSERT INTO contactNameFamily (rowid, names) VALUES (?, ?)", arguments: [family, text[rowid]])
        }
        let links = try Row.fetchAll(db, sql: "SELECT unifiedId, contactRowid, preferredForName FROM contactLink")
        for unified in Set(links.map { $0[0] as String }) {
            let members = links.filter { $0[0] as String == unified }
            guard let standing = members.first(where: { $0[2] as Bool }).map({ rowids[$0[1] as Int64]! }) else {
                continue
            }
            let names = members.filter { !($0[2] as Bool) }.compactMap { text[$0[1] as Int64] }.filter { !$0.isEmpty }
            guard !names.isEmpty else { continue }
            let joined = names.joined(separator: " ")
            try db.execute(
                sql: "INSERT INTO contactNameGivenLinked (rowid, names) VALUES (?, ?)",
                arguments: [standing.given, joined])
            try db.execute(
                sql: "INSERT INTO contactNameFamilyLinked (rowid, names) VALUES (?, ?)",
                arguments: [standing.family, joined])
            try db.execute(
                sql: """
                    INSERT INTO contactLinkName (unifiedId, ftsGiven, ftsFamily, names, members)
                    VALUES (?, ?, ?, ?, ?)
                    """, arguments: [unified, standing.given, standing.family, joined, names.count])
        }
        for group in try Row.fetchAll(db, sql: "SELECT rowid, name FROM \"group\"") {
            try db.execute(
                sql: "UPDATE \"group\" SET sortName = ? WHERE rowid = ?",
                arguments: [fold(group[1]), group[0] as Int64])
        }
    }
}

@Suite("Migration v14: names refolded composed")
struct ComposedRefoldMigrationTests {
    static let composed = "\u{D55C}\u{AD6D}"
    static let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"

    struct Records {
        var request = SaveRequest(transactionAuthor: "old")
        let standing = Make.person("Alpha", "Zed")
        let hidden = Make.person(ComposedRefoldMigrationTests.decomposed, "Park")
        let plain = Make.person("\u{304B}\u{3099}\u{304F}", "Sato")
        let group = Group(name: "\u{1112}\u{1161}\u{11AB} team")

        init() {
            request.add(standing)
            request.add(hidden)
            request.add(plain)
            request.add(Make.person(ComposedRefoldMigrationTests.composed, "Kim"))
            request.add(Make.person("Ann", "Smith"))
            request.add(group)
            request.add(Group(name: "\u{D558}"))
            request.link(contactsWithIdentifiers: [standing.identifier, hidden.identifier])
            request.setPreferredForName(contactWithIdentifier: standing.identifier)
        }
    }

    @Test(
        "A store of v13 with decomposed names is refolded: found by either spelling, as a new store's",
        arguments: StoreKind.sqlite)
    func refold(kind: StoreKind) async throws {
        let records = Records()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = try EarlierStore(
            kind, at: "v13", directory: directory, request: records.request, rewrite: UncomposedFolding.rewrite)
        // The old store has the bug: the precomposed spelling does not find the decomposed one.
        let before = try await earlier.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM contactNameFamily WHERE contactNameFamily MATCH ?",
                arguments: ["\"\(Self.composed)\""])
        }
        #expect(before == 1)
        let store = try earlier.open()
        let fresh = try await StoreFixture(kind)
        try await fresh.sqliteStore.execute(records.request)
        #expect(
            try await store.writer.read(DerivedRows.read) == fresh.sqliteStore.writer.read(DerivedRows.read))
        for query in [Self.composed, Self.decomposed, "\u{D55C}"] {
            #expect(try await store.familyNames(matchingName: query) == ["Kim", "Park"], "\(query.debugDescription)")
            #expect(
                try await store.familyNames(matchingName: query, unify: true) == ["Kim", "Zed"],
                "\(query.debugDescription)")
        }
        #expect(try await store.familyNames(matchingName: "\u{304C}") == ["Sato"])
        // Refolded, "한 team" sorts after "하" again; as jamo it came first.
        #expect(
            try await store.groups().map { Array($0.name.utf8) } == [
                Array("\u{D558}".utf8), Array(records.group.name.utf8),
            ])

        // The rows the migration wrote are the ones later saves remove: a renamed hidden member leaves nothing.
        var rename = Contact(updating: records.hidden.identifier)
        rename.givenName = "Bo"
        try await store.execute(SaveRequest(operations: [.updateContact(rename, baseRevision: nil)]))
        for query in [Self.composed, Self.decomposed] {
            #expect(
                try await store.familyNames(matchingName: query, unify: true) == ["Kim"], "\(query.debugDescription)")
        }
        #expect(try await store.familyNames(matchingName: "bo", unify: true) == ["Zed"])
        try await store.close()
    }

    @Test("A store of v13 whose names are all composed keeps its rows", arguments: StoreKind.sqlite)
    func composedStoreUnchanged(kind: StoreKind) async throws {
        var request = SaveRequest(transactionAuthor: "old")
        request.add(Make.person(Self.composed, "Kim"))
        request.add(Make.person("José", "Núñez"))
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = try EarlierStore(kind, at: "v13", directory: directory, request: request)
        let before = try await earlier.writer.read(DerivedRows.read)
        let store = try earlier.open()
        #expect(try await store.writer.read(DerivedRows.read) == before)
        #expect(try await store.familyNames(matchingName: "kim") == ["Kim"])
        try await store.close()
    }
}
