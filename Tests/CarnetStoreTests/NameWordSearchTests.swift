import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A name search means the same on every backend: each word of the query starts a word of the contact's names, the
/// words as ``TextFolding/words(_:)`` splits them. SQLite once let its tokenizer split words its own way (at letters'
/// marks and joiners, not at private-use characters), so the two backends answered differently (an outside
/// differential tester's find); generated names of such pieces, checked against that definition, find what a few
/// examples miss.
@Suite("Name search by words")
struct NameWordSearchTests {
    static let baseSeed = SeededRandom.seed(from: "CARNET_NAME_SEED")

    /// Pieces names are made of: letters of several scripts, letters' marks (Devanagari vowel signs and virama,
    /// Thai vowels), a joiner, a private-use character, circled letters, digits, punctuation and spaces.
    static let pieces = [
        "a", "b", "ab", "é", "Ö", "ß", "ⓐ", "ⓑ", "\u{200D}", "\u{E000}", "क", "ि", "ता", "ब", "्", "र", "स", "ु", "ข",
        "ใจ", "김", "민", "1", "7", "-", ".", " ", "'", "\u{301}",
    ]

    static func name(_ random: inout SeededRandom) -> String {
        (0..<random.int(1...5)).map { _ in random.pick(pieces)! }.joined()
    }

    /// The definition: every query word starts (scalar by scalar) one of the contact's words.
    static func matches(_ query: String, _ contact: Contact) -> Bool {
        let words = TextFolding.words(ContactIndexing.names(contact))
        return TextFolding.queryWords(query).allSatisfy { query in
            words.contains { $0.unicodeScalars.starts(with: query.unicodeScalars) }
        }
    }

    @Test(
        "Generated names and queries find exactly the contacts one of whose words each query word starts",
        arguments: StoreKind.available)
    func generated(kind: StoreKind) async throws {
        let seed = Self.baseSeed &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!)
        var random = SeededRandom(seed: seed)
        let store = try await StoreFixture(kind).store
        var contacts: [Contact] = []
        for _ in 0..<40 {
            var contact = Make.person(Self.name(&random), Self.name(&random))
            if random.chance(30) { contact.nickname = Self.name(&random) }
            contacts.append(contact)
        }
        try await store.add(contacts)
        for round in 0..<60 {
            // Half the queries start a stored word (those that match something), the others are made of pieces.
            let query: String
            if random.chance(50),
                let word = random.pick(TextFolding.words(ContactIndexing.names(random.pick(contacts)!)))
            {
                let scalars = Array(word.unicodeScalars)
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars.prefix(random.int(1...scalars.count)))
                query = String(prefix) + (random.chance(30) ? " " + Self.name(&random) : "")
            } else {
                query = Self.name(&random)
            }
            guard !TextFolding.queryWords(query).isEmpty else { continue }
            let expected = Set(contacts.filter { Self.matches(query, $0) }.map(\.identifier))
            for order in [ContactSortOrder.none, .givenName, .familyName] {
                let page = try await store.contacts(
                    ContactFetchRequest(
                        predicate: .matchingName(query), keysToFetch: [], sortOrder: order,
                        page: .first(StoreLimits.pageSize), includeTotalCount: true))
                let found = page.contacts.map(\.identifier)
                #expect(
                    Set(found) == expected && found.count == expected.count && page.totalCount == expected.count,
                    "seed \(seed) round \(round) \(order): \(query.unicodeScalars.map { String($0.value, radix: 16) })"
                )
            }
        }
    }

    /// The cases the differential tester reported, each a difference between the backends.
    @Test(
        "Joiners, private-use characters, circled letters and Indic marks split words as on every backend",
        arguments: StoreKind.available)
    func reported(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let cases: [(name: String, term: String, found: Bool)] = [
            ("A\u{200D}B", "b", false), ("A\u{200D}B", "a\u{200D}b", true), ("ab\u{E000}cd", "cd", true),
            ("ⓐⓑ", "ⓐ", true), ("किताब", "ता", false), ("किताब", "कि", true), ("प्रिया", "र", false),
        ]
        let contacts = cases.map { Make.person($0.name, "Zed") }
        try await store.add(contacts)
        for (index, entry) in cases.enumerated() {
            let found = try await store.contacts(
                ContactFetchRequest(predicate: .matchingName(entry.term), keysToFetch: [], sortOrder: .givenName)
            )
            .contacts.map(\.identifier)
            #expect(found.contains(contacts[index].identifier) == entry.found, "\(entry.name) by \(entry.term)")
            #expect(entry.found == Self.matches(entry.term, contacts[index]), "the definition, \(entry.name)")
        }
    }
}
