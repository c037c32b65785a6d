import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Name searches, generated: contacts with names drawn from a pool of shared words (diacritics, words longer
/// than the indexed prefixes, one contact whose words overflow an index row), renamed and deleted at random, then
/// searched with typed prefixes of one to three words in every order, paged forwards and backwards in small pages.
/// Every page must match a model computed here from the documented rule: each query word, folded, is a prefix of
/// one of the contact's folded name words; order by the folded sort key (bytes), then the identifier.
@Suite("Name search against a model")
struct NameSearchModelTests {
    static let pool = [
        "Anna", "Ann", "Annabel", "José", "Joseph", "Josefina", "Jo", "Müller", "Mull", "Smith", "Smithson",
        "Zoë", "Łukasz", "Ørsted", "O'Brien", "García", "Garcia", "Lars", "Nova", "Chen", "A", "Éa", "Ångström",
        // Sort keys that first differ at a digit, a space, a hyphen or a non-ASCII character, with letters after it
        // that order the other way ("f1 zed" before "f2 ann"): the index's buckets must keep their order.
        "F1", "F2", "Jo-Ann", "Jean-Al", "Jean", "Luc", "李", "王", "Zed",
    ]

    static var seeds: [UInt64] { SeededRandom.seeds(from: "CARNET_NAME_SEARCH_SEED", default: [1, 2, 3]) }

    struct Model {
        var contacts: [String: Contact] = [:]
        var created: [String] = []

        func expected(_ query: String, order: ContactSortOrder) -> [String] {
            let words = TextFolding.words(query)
            let matching = created.filter { id in
                guard let contact = contacts[id] else { return false }
                let names = TextFolding.words(ContactIndexing.names(contact))
                return !words.isEmpty && words.allSatisfy { word in names.contains { $0.utf8.starts(with: word.utf8) } }
            }
            guard order == .givenName || order == .familyName else { return matching }
            let key = order == .givenName ? ContactKey.givenName : .familyName
            return matching.map { (Array(ContactIndexing.sortKey(contacts[$0]!, key).utf8), Array($0.utf8), $0) }
                .sorted { $0.0 != $1.0 ? $0.0.lexicographicallyPrecedes($1.0) : $0.1.lexicographicallyPrecedes($1.1) }
                .map(\.2)
        }
    }

    static func name(_ random: inout SeededRandom) -> String {
        (0..<random.int(0...2)).map { _ in random.pick(pool)! }.joined(separator: " ")
    }

    /// A query as a person types it: prefixes of pool words, in any case, sometimes with a word nobody has.
    static func query(_ random: inout SeededRandom) -> String {
        (0..<random.int(1...3)).map { _ in
            if random.chance(10) { return "xq" }
            let word = random.pick(pool)!.filter { $0.isLetter }
            let typed = String(word.prefix(random.int(1...max(1, min(6, word.count)))))
            return random.chance(50) ? typed.uppercased() : typed.lowercased()
        }.joined(separator: " ")
    }

    @Test("Pages of every name search match the model", arguments: StoreKind.available)
    func pagesMatchModel(kind: StoreKind) async throws {
        for seed in Self.seeds {
            try await run(kind: kind, seed: seed)
        }
    }

    func run(kind: StoreKind, seed: UInt64) async throws {
        let store = try await StoreFixture(kind).store
        var random = SeededRandom(seed: seed)
        var model = Model()
        let nameKeys: ContactKeySet = [.givenName, .middleName, .familyName, .organizationName]
        for _ in 0..<3 {
            var contacts = (0..<30).map { _ in
                Make.person(Self.name(&random), Self.name(&random), organization: random.chance(10) ? "Nova Corp" : "")
            }
            if model.created.isEmpty {
                // Words past an index row's list: the search reads this contact's words from their own table.
                contacts[0].middleName = (0..<100).map { "filler\($0)" }.joined(separator: " ")
            }
            try await store.add(contacts)
            for contact in contacts {
                model.contacts[contact.identifier] = contact
                model.created.append(contact.identifier)
            }
            // Renames (the sort keys move with the words) and deletes.
            var request = SaveRequest()
            var touched = Set<String>()
            for _ in 0..<8 {
                guard let id = random.pick(model.created), model.contacts[id] != nil, touched.insert(id).inserted
                else { continue }
                if random.chance(25) {
                    request.delete(contactWithIdentifier: id)
                    model.contacts[id] = nil
                    continue
                }
                let page = try await store.contacts(
                    ContactFetchRequest(predicate: .withIdentifiers([id]), keysToFetch: nameKeys))
                var contact = try #require(page.contacts.first)
                if random.chance(50) {
                    (contact.givenName, contact.familyName) = (contact.familyName, contact.givenName)
                } else {
                    contact.givenName = Self.name(&random)
                    contact.organizationName = random.chance(30) ? "Ørsted Group" : ""
                }
                request.update(contact)
                model.contacts[id]!.givenName = contact.givenName
                model.contacts[id]!.familyName = contact.familyName
                model.contacts[id]!.organizationName = contact.organizationName
            }
            try await store.execute(request)
        }
        model.created.removeAll { model.contacts[$0] == nil }
        for _ in 0..<25 {
            let query = Self.query(&random)
            for order in [ContactSortOrder.givenName, .familyName, .none] {
                let expected = model.expected(query, order: order)
                let size = random.int(1...7)
                var forward: [String] = []
                var cursor: String?
                var total: Int?
                repeat {
                    let page = try await store.contacts(
                        ContactFetchRequest(
                            predicate: .matchingName(query), keysToFetch: [.givenName], sortOrder: order,
                            page: .first(size, after: cursor), includeTotalCount: cursor == nil))
                    total = total ?? page.totalCount
                    forward += page.contacts.map(\.identifier)
                    cursor = page.cursors.last
                    guard page.hasNextPage, forward.count <= expected.count else { break }
                } while true
                let context = "seed \(seed) on \(kind), query \"\(query)\", order \(order), pages of \(size)"
                #expect(forward == expected, "\(context): forwards")
                #expect(total == expected.count, "\(context): total count")
                var backward: [String] = []
                cursor = nil
                repeat {
                    let page = try await store.contacts(
                        ContactFetchRequest(
                            predicate: .matchingName(query), keysToFetch: [], sortOrder: order,
                            page: .last(size, before: cursor)))
                    backward = page.contacts.map(\.identifier) + backward
                    cursor = page.cursors.first
                    guard page.hasPreviousPage, backward.count <= expected.count else { break }
                } while true
                #expect(backward == expected, "\(context): backwards")
            }
        }
    }
}
