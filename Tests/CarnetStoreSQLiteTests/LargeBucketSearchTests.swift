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
        #expect(
            NameIndex.bucket("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}") | NameIndex.contactMask
                == Int64.max)
        #expect(NameIndex.bucket("") == 0)
    }
}
