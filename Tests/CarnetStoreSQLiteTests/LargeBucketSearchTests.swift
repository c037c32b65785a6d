import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// Name searches whose matches fill name-index buckets larger than `OrderedNameSearch.largeBucket`: a common
/// family name of six letters (its bucket is the name and the separator, every given name: "Müller") and one of
/// seven letters or more (its first seven letters: "Schmidt", "Hernández"), read forward through the sort-key index.
@Suite("Name search in large index buckets")
struct LargeBucketSearchTests {
    static func seeded(_ kind: StoreKind, traced: Bool = false) async throws -> (StoreFixture, [String]) {
        let fixture = try await StoreFixture(kind, traced: traced)
        let given = ["Anna", "Annabel", "Bert", "Zoë", "Ägidius", "Jo", "", "Anton", "Ελένη", "Mia"]
        var contacts: [Contact] = []
        for index in 0..<480 {
            let family = ["Schmidt", "Hernández", "Hernandez", "Schmidt-Lee", "Smith", "Müller"][index % 6]
            var contact = Make.person(given[index % given.count], family)
            contact.middleName = index % 7 == 0 ? "Q" : ""
            contacts.append(contact)
        }
        // Same sort key, told apart by identifier.
        for _ in 0..<80 { contacts.append(Make.person("Anna", "Schmidt")) }
        contacts.append(Make.person("Zed", "Schmid"))
        contacts.append(Make.person("Ann", "Schmidtz"))
        try await fixture.sqliteStore.add(contacts)
        return (fixture, contacts.map(\.identifier))
    }

    @Test(
        "Pages over large buckets: forward and backward, as the general path orders them", arguments: StoreKind.sqlite
    )
    func pages(kind: StoreKind) async throws {
        let (fixture, everyone) = try await Self.seeded(kind)
        let store = try fixture.sqliteStore
        for order in [ContactSortOrder.familyName, .givenName] {
            for query in ["schm", "schmidt", "hern", "hernandez", "a", "anna schm", "mull", "mia mül"] {
                let expected = try await expectPagesMatchGeneralPath(
                    store, query, order: order, everyone: everyone, sizes: [7, 64])
                #expect(!expected.isEmpty)
            }
        }
    }

    @Test("A large bucket is read through the sort-key index, not by a lookup per match")
    func readsTheSortIndex() async throws {
        let (fixture, _) = try await Self.seeded(.inMemory, traced: true)
        fixture.statements.reset()
        let page = try await fixture.sqliteStore.contacts(
            ContactFetchRequest(
                predicate: .matchingName("hern"), keysToFetch: [.familyName], sortOrder: .familyName, page: .first(10)))
        #expect(page.contacts.count == 10)
        let sql = fixture.statements.all.joined(separator: "\n")
        #expect(sql.contains("WHERE sortFamily >= 'hernand'"), "\(sql)")
    }

    @Test("The lowest key of a bucket is at or below every key in it")
    func lowestKey() {
        let keys = [
            "schmidt\u{1}anna", "hernandez\u{1}bert", "li\u{1}wu", "a", "", "o'brien\u{1}x", "zz{top", "ελένη\u{1}a",
            "smith\u{1}ann\u{1}q", "van der berg", "schmid\u{1}zed", "\u{FFFD}", "9lives",
        ]
        for key in keys {
            let bucket = NameIndex.bucket(key) >> NameIndex.counterBits
            let lowest = NameIndex.lowestKey(bucket: bucket)
            #expect(Array(lowest.utf8).lexicographicallyPrecedes(Array(key.utf8)) || lowest == key, "\(key)")
            #expect(NameIndex.bucket(lowest) >> NameIndex.counterBits <= bucket)
        }
        #expect(NameIndex.lowestKey(bucket: NameIndex.bucket("schmidt\u{1}anna") >> NameIndex.counterBits) == "schmidt")
        #expect(
            NameIndex.lowestKey(bucket: NameIndex.bucket("muller\u{1}anna") >> NameIndex.counterBits) == "muller\u{1}")
        #expect(NameIndex.lowestKey(bucket: NameIndex.bucket("hernandez") >> NameIndex.counterBits) == "hernand")
        // Every bucket fits the rowid's high bits, above the contact's: rowids stay positive.
        #expect(NameIndex.bucket("\u{FFFD}") | NameIndex.contactMask > 0)
        #expect(NameIndex.bucket("zzzzzz\u{FFFD}") | NameIndex.contactMask > 0)
        #expect(NameIndex.bucket("zzzzzzz") < NameIndex.bucket("\u{FFFD}"))
        #expect(NameIndex.bucket("") == 0)
    }
}

extension LargeBucketSearchTests {
    /// With every fifth contact linked to the next, a unified search reads the contact name index less the members
    /// that do not stand for their unified contact, and the unified contacts' index (`LinkedNameIndex`): its pages
    /// are the individual matches, each replaced by its unified contact, where the name-preferred member stands.
    @Test(
        "Unified pages over large buckets: the individual matches' unified contacts, in order",
        arguments: StoreKind.sqlite)
    func unifiedPages(kind: StoreKind) async throws {
        let (fixture, everyone) = try await Self.seeded(kind)
        let store = try fixture.sqliteStore
        var link = SaveRequest()
        for start in stride(from: 0, to: 480, by: 5) {
            // Name-preferred: the first; the other stands in another bucket ("Hernández" for a "Schmidt").
            link.link(contactsWithIdentifiers: [everyone[start], everyone[start + 1]])
        }
        try await store.execute(link)
        var unitOf: [String: String] = [:]
        var standing: [String: String] = [:]
        for group in try await store.linkGroups(containing: everyone) {
            for member in group.members { unitOf[member] = group.identifier }
            standing[group.identifier] = group.preferredForName
        }
        #expect(standing.count == 96)
        for order in [ContactSortOrder.familyName, .givenName] {
            let listing = try await store.contacts(
                ContactFetchRequest(keysToFetch: [], sortOrder: order, page: .first(1000))
            ).contacts.map(\.identifier)
            for query in ["schm", "schmidt", "hern", "a", "anna schm", "mull", "mia mül", "anton hern"] {
                let matches = try await store.contacts(
                    ContactFetchRequest(
                        predicate: ContactPredicate(matchingName: query, identifiers: everyone), keysToFetch: [],
                        page: .first(1000))
                ).contacts.map { unitOf[$0.identifier] ?? $0.identifier }
                let matched = Set(matches)
                let expected = listing.compactMap { contact -> String? in
                    let unit = unitOf[contact] ?? contact
                    return (standing[unit] ?? contact) == contact && matched.contains(unit) ? unit : nil
                }
                #expect(!expected.isEmpty, "\(query)")
                for size in [7, 64] {
                    let walked = try await walkNameSearch(
                        store, query, order: order, size: size, unify: true, limit: expected.count)
                    #expect(walked.forward == expected, "\(order) \(query) \(size)")
                    #expect(walked.backward == expected, "\(order) \(query) \(size) backward")
                }
            }
        }
    }
}

extension LargeBucketSearchTests {
    @Test("A unified name search reads both name indexes in order, not the members that match one by one")
    func unifiedSearchReadsTheIndexes() async throws {
        let (fixture, everyone) = try await Self.seeded(.inMemory, traced: true)
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: [everyone[0], everyone[1]])
        try await fixture.sqliteStore.execute(link)
        fixture.statements.reset()
        var search = ContactFetchRequest(
            predicate: .matchingName("hern"), keysToFetch: [.familyName], sortOrder: .familyName, page: .first(10))
        search.unifyResults = true
        let page = try await fixture.sqliteStore.contacts(search)
        #expect(page.contacts.count == 10)
        let sql = fixture.statements.all.joined(separator: "\n")
        #expect(sql.contains("FROM contactNameFamilyLinked f"), "\(sql)")
        #expect(sql.contains("FROM contactNameFamily f"), "\(sql)")
        // The general path's driver, which reads every member that matches.
        #expect(!sql.contains("lp.contactRowid AS r FROM contactLink lh"), "\(sql)")
    }
}
