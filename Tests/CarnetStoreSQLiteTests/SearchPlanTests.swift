import CarnetStore
import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStoreSQLite

/// How SQLite runs searches: from their indexes, and the ordered name search as the general path would.
@Suite("Search plans")
struct SearchPlanTests {
    func seeded(_ kind: StoreKind, traced: Bool = false) async throws -> StoreFixture {
        let fixture = try await StoreFixture(kind, traced: traced)
        try await fixture.store.add(Make.searchSample())
        return fixture
    }

    @Test("Name, email and phone searches use indexes, never a scan of contacts", arguments: StoreKind.sqlite)
    func searchesUseIndexes(kind: StoreKind) async throws {
        let fixture = try await seeded(kind, traced: true)
        let predicates: [ContactPredicate] = [
            .matchingName("ann sm"), .matchingEmailAddress("anna@example.com"), .matchingPhoneNumber("5555551234"),
            ContactPredicate(matchingName: "ann", matchingEmailAddress: "anna@example.com"),
        ]
        for predicate in predicates {
            for order in [ContactSortOrder.none, .givenName, .familyName] {
                fixture.statements.reset()
                _ = try await fixture.store.contacts(
                    ContactFetchRequest(
                        predicate: predicate, keysToFetch: [.givenName], sortOrder: order, includeTotalCount: true))
                let searches = fixture.statements.all.filter { $0.contains("MATCH") || $0.contains("searchKey") }
                #expect(!searches.isEmpty)
                for statement in searches {
                    let plan = try await fixture.sqliteStore.writer.read { db in
                        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement).map { $0["detail"] as String }
                    }
                    #expect(
                        !plan.contains {
                            $0 == "SCAN c" || $0.hasPrefix("SCAN c ") || $0.hasPrefix("SCAN labeledValue")
                        }, "\(plan)")
                    #expect(
                        plan.contains { $0.contains("VIRTUAL TABLE") || $0.contains("labeledValue_search") }, "\(plan)")
                    // A name-only search in a name order reads the index in order: no sort of all the matches.
                    if predicate.matchingEmailAddress == nil && predicate.matchingPhoneNumber == nil && order != .none
                        && statement.contains("LIMIT")
                    {
                        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
                    }
                }
            }
        }
    }

    @Test(
        "Ordered name search pages equal the general path's, across shared buckets, both ways",
        arguments: StoreKind.sqlite)
    func orderedNameSearchPages(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).sqliteStore
        // Many contacts whose sort keys share their first seven characters, and some that do not.
        var contacts: [Contact] = []
        for index in 0..<60 {
            contacts.append(
                Make.person(
                    ["Anna", "Annabel", "Annette"][index % 3], index % 4 == 0 ? "Smithsonian" : "Smith\(index % 5)"))
        }
        contacts.append(Make.person("Zed", "Annex"))
        try await store.add(contacts)
        let everyone = contacts.map(\.identifier)
        for order in [ContactSortOrder.familyName, .givenName] {
            for query in ["ann", "ann smith", "smiths"] {
                try await expectPagesMatchGeneralPath(
                    store, query, order: order, everyone: everyone, sizes: [1, 7, 50])
            }
        }
    }

    @Test("Name index buckets keep the folded sort order")
    func bucketsKeepOrder() {
        let dale = TextFolding.sortKey(primary: "Dale", secondary: "Amy", middle: "", organization: "")
        let dang = TextFolding.sortKey(primary: "Đặng", secondary: "Thảo", middle: "", organization: "")
        let evans = TextFolding.sortKey(primary: "Evans", secondary: "Bob", middle: "", organization: "")
        #expect(NameIndex.bucket(dale) < NameIndex.bucket(dang) && NameIndex.bucket(dang) < NameIndex.bucket(evans))
    }

    @Test("Renamed and deleted names leave no term in the name index", arguments: StoreKind.sqlite)
    func noTermsLeft(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).sqliteStore
        try await store.add([Make.person("Đức", "Nguyễn"), Make.person("Thảo", "Đặng")])
        let duc = try await store.contacts(ContactFetchRequest(predicate: .matchingName("duc"), keysToFetch: []))
            .contacts[0].identifier
        var rename = Contact(updating: duc)
        rename.givenName = "Hùng"
        try await store.execute(SaveRequest(operations: [.updateContact(rename, baseRevision: nil)]))
        let everyone = try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.map(\.identifier)
        try await store.execute(SaveRequest(operations: everyone.map { .deleteContact(identifier: $0) }))
        let terms = try await store.writer.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT (SELECT count(*) FROM contactNameFamily_terms) + (SELECT count(*) FROM contactNameGiven_terms)"
            )
        }
        #expect(terms == 0)
    }

    @Test("Only the requested keys are read from SQLite", arguments: StoreKind.sqlite)
    func onlyRequestedKeys(kind: StoreKind) async throws {
        let fixture = try await seeded(kind, traced: true)
        fixture.statements.reset()
        let page = try await fixture.store.contacts(ContactFetchRequest(keysToFetch: [.givenName], page: .first(10)))
        let sql = fixture.statements.all.joined(separator: "\n")
        #expect(sql.contains("c.givenName"))
        for column in ["familyName", "phoneNumbers", "labeledValue", "contactImage", "note", "birthday"] {
            #expect(!sql.contains(column), "read \(column)")
        }
        #expect(page.contacts.allSatisfy { $0.isKeyAvailable(.givenName) && !$0.isKeyAvailable(.familyName) })

        fixture.statements.reset()
        _ = try await fixture.store.contacts(ContactFetchRequest(keysToFetch: [.emailAddresses]))
        let multi = fixture.statements.all.joined(separator: "\n")
        #expect(multi.contains("labeledValue") && multi.contains("kind IN (2)"))
        #expect(!multi.contains("c.givenName"))
    }

    @Test(
        "Group and membership queries cost a fixed number of statements, whatever the size",
        arguments: StoreKind.sqlite)
    func noNPlusOne(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind, traced: true)
        let store = fixture.store
        func statements(groups: Int, membersEach: Int) async throws -> (Int, Int) {
            var request = SaveRequest()
            var groupIDs: [String] = []
            var contactIDs: [String] = []
            for _ in 0..<groups {
                let group = Group(name: "G")
                groupIDs.append(group.identifier)
                request.add(group)
                for _ in 0..<membersEach {
                    let contact = Make.person("A", "B", emails: ["a@b.c"])
                    contactIDs.append(contact.identifier)
                    request.add(contact)
                    request.addMember(contact.identifier, toGroup: group.identifier)
                }
            }
            try await store.execute(request)
            fixture.statements.reset()
            _ = try await store.members(ofGroups: groupIDs, keysToFetch: [.givenName, .emailAddresses])
            let membersCount = fixture.statements.all.filter { $0.hasPrefix("SELECT") }.count
            fixture.statements.reset()
            _ = try await store.groups(ofContacts: contactIDs)
            return (membersCount, fixture.statements.all.filter { $0.hasPrefix("SELECT") }.count)
        }
        let small = try await statements(groups: 2, membersEach: 2)
        let large = try await statements(groups: 20, membersEach: 20)
        #expect(small == large)
    }
}
