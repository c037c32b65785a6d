import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Folding composes text first: canonically equivalent spellings of a name (NFC and NFD) find each other and sort
/// together. Before, a name typed as conjoining jamo ("한국" from a macOS file name) was not found by the same name
/// typed precomposed, nor the other way round (an outside tester's find), while Latin spellings were.
@Suite("Folding composes canonically equivalent spellings")
struct ComposedFoldingTests {
    /// Names whose NFC and NFD spellings differ: Hangul, kana with a voicing mark, Devanagari with a nukta, Cyrillic with a breve, Vietnamese with two marks,
    /// Greek with a tonos, and Latin.
    static let names = ["한국", "がくせい", "\u{929}\u{93E}", "Андрей", "Nguyễn", "Ελένη", "José"]

    static func nfd(_ text: String) -> String { text.decomposedStringWithCanonicalMapping }
    static func nfc(_ text: String) -> String { text.precomposedStringWithCanonicalMapping }

    @Test("NFC and NFD spellings fold to the same bytes", arguments: names)
    func sameFolding(name: String) {
        #expect(!Self.nfc(name).utf8.elementsEqual(Self.nfd(name).utf8))
        #expect(TextFolding.fold(Self.nfc(name)).utf8.elementsEqual(TextFolding.fold(Self.nfd(name)).utf8))
    }

    /// Generated text from pieces that compose, decompose or reorder (marks of different combining classes), in
    /// either spelling: the folding depends on the canonical form only.
    @Test("Generated text folds alike in every canonically equivalent spelling")
    func generated() {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        let pieces = [
            "a", "E", "\u{301}", "\u{323}", "\u{302}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{304B}",
            "\u{3099}", "\u{915}", "\u{93C}", "\u{958}", "\u{438}", "\u{306}", "\u{3B5}", "\u{301}", "\u{1EC7}", " ",
            "\u{130}", "\u{212B}", "\u{F900}", "ß", "\u{FB01}", "\u{1E9B}", "\u{344}", "\u{F68}", "\u{F71}",
            "\u{374}", "\u{387}", "\u{3AC}", "\u{439}", "\u{30AB}", "\u{309B}", "\u{3D3}",
        ]
        for _ in 0..<2000 {
            let text = (0..<random.int(1...8)).map { _ in random.pick(pieces)! }.joined()
            let folded = TextFolding.fold(text)
            for spelling in [Self.nfc(text), Self.nfd(text)] {
                #expect(
                    TextFolding.fold(spelling).utf8.elementsEqual(folded.utf8),
                    "seed \(seed): \(text.debugDescription) as \(spelling.debugDescription)")
            }
        }
    }

    /// The scalars folding takes for composed without composing them: each is NFC alone, has no combining class,
    /// and composes with no letter before it.
    @Test("Text in the ranges folding does not compose is composed already")
    func composedRanges() {
        for value in UInt32(0)..<0x1_0000 {
            guard let scalar = Unicode.Scalar(value), !TextFolding.mayNeedComposing(String(scalar)) else { continue }
            let alone = String(scalar)
            #expect(Self.nfc(alone).unicodeScalars.elementsEqual(alone.unicodeScalars), "U+\(String(value, radix: 16))")
            #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(value, radix: 16))")
            for base in ["a", "\u{3B1}", "\u{438}", "\u{304B}", "\u{AC00}", "\u{1100}"] {
                let pair = base + alone
                #expect(
                    Self.nfc(pair).unicodeScalars.elementsEqual(pair.unicodeScalars), "U+\(String(value, radix: 16))")
            }
        }
    }

    /// The store's side of ``generated()``: generated names, saved, are found by themselves in either spelling.
    @Test("Generated names are found by themselves in either spelling", arguments: StoreKind.available)
    func generatedSearch(kind: StoreKind) async throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        let pieces = [
            "a", "\u{301}", "\u{323}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{304B}", "\u{3099}",
            "\u{915}", "\u{93C}", "\u{438}", "\u{306}", "\u{3B5}", "\u{1EC7}", "\u{344}", "\u{5D0}", "\u{5B8}",
        ]
        let store = try await StoreFixture(kind).store
        var contacts: [Contact] = []
        for index in 0..<40 {
            let name = "n" + (0..<random.int(1...6)).map { _ in random.pick(pieces)! }.joined()
            contacts.append(Make.person(name, "G\(index)"))
        }
        try await store.add(contacts)
        for contact in contacts {
            for query in [Self.nfc(contact.givenName), Self.nfd(contact.givenName)] {
                let found = try await store.contacts(
                    ContactFetchRequest(predicate: .matchingName(query), keysToFetch: [], page: .first(100))
                ).contacts.map(\.identifier)
                #expect(found.contains(contact.identifier), "seed \(seed) \(kind): \(query.debugDescription)")
            }
        }
    }

    @Test(
        "A name is found by either spelling, its prefix too, and both spellings sort together",
        arguments: StoreKind.available)
    func search(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contacts: [Contact] = []
        for name in Self.names {
            contacts.append(Make.person(Self.nfc(name), "Composed"))
            contacts.append(Make.person(Self.nfd(name), "Decomposed"))
        }
        contacts.append(Make.person("Zed", "Other"))
        try await store.add(contacts)
        for (index, name) in Self.names.enumerated() {
            let expected = Set([contacts[2 * index].identifier, contacts[2 * index + 1].identifier])
            let firstLetter = String(Self.nfc(name).prefix(1))
            for query in [Self.nfc(name), Self.nfd(name), firstLetter, Self.nfd(firstLetter)] {
                for order in [ContactSortOrder.givenName, .none] {
                    let found = try await store.walk(
                        ContactFetchRequest(predicate: .matchingName(query), keysToFetch: [], sortOrder: order), size: 5
                    ).contacts.map(\.identifier)
                    #expect(expected.isSubset(of: Set(found)), "\(kind) \(query.debugDescription) \(order)")
                }
            }
        }
        let sorted = try await store.walk(
            ContactFetchRequest(predicate: .all, keysToFetch: [], sortOrder: .givenName), size: 4
        ).contacts.map(\.identifier)
        for index in Self.names.indices {
            let positions = [contacts[2 * index], contacts[2 * index + 1]].compactMap {
                sorted.firstIndex(of: $0.identifier)
            }
            #expect(positions.count == 2 && abs(positions[0] - positions[1]) == 1, "\(kind) \(Self.names[index])")
        }
    }
}
