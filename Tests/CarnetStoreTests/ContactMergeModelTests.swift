import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Merges, generated: contacts drawn from small pools of names, emails (in any case) and phones (in several
/// forms), some in groups, merged at random, several times over. After each merge the survivor's names, emails,
/// phones (with their identifiers), groups and the absorbed contacts' absence must match a model written here from
/// the documented rules, not from `ContactMerge`. `CARNET_MERGE_SEED` runs one seed; a failure prints its seed.
@Suite("Merging contacts against a model")
struct ContactMergeModelTests {
    static let givenNames = ["", "", "Ada", "Grace", "Alan"]
    static let familyNames = ["", "Lovelace", "Hopper", "Turing"]
    static let emails = ["ada@example.com", "grace@navy.example", "alan@bletchley.example", "team@example.com"]
    /// Each number in three forms that are the same national number.
    static let phones = [
        ["+1 555 555 0101", "(555) 555-0101", "5555550101"], ["+44 20 7946 0958", "020 7946 0958", "02079460958"],
        ["+1 555 555 0199", "555.555.0199", "1-555-555-0199"],
    ]

    static var seeds: [UInt64] { SeededRandom.seeds(from: "CARNET_MERGE_SEED", default: [1, 2, 3, 4]) }

    /// A contact as the model holds it: emails and phones as (identifier, value, the model's duplicate key).
    struct Modelled {
        var given: String
        var family: String
        var emails: [Value]
        var phones: [Value]
    }

    typealias Value = (id: String, value: String, key: String)

    /// The survivor's values, all of them, then each absorbed value that no value kept so far duplicates.
    static func union(_ lists: [[Value]]) -> [Value] {
        guard let own = lists.first else { return [] }
        var seen = Set(own.map(\.key))
        return own + lists.dropFirst().joined().filter { seen.insert($0.key).inserted }
    }

    @Test("Merged contacts match the model", arguments: StoreKind.available)
    func mergesMatchModel(kind: StoreKind) async throws {
        for seed in Self.seeds {
            var random = SeededRandom(seed: seed)
            let store = try await StoreFixture(kind).store
            var setup = SaveRequest(transactionAuthor: "setup")
            let groups = (0..<3).map { Group(name: "G\($0)") }
            for group in groups { setup.add(group) }
            var ids: [String] = []
            var memberships: [String: Set<String>] = [:]
            for _ in 0..<random.int(6...12) {
                var contact = Contact()
                contact.givenName = random.pick(Self.givenNames)!
                contact.familyName = random.pick(Self.familyNames)!
                contact.emailAddresses = (0..<random.int(0...2)).map { _ in
                    let email = random.pick(Self.emails)!
                    return LabeledValue(label: nil, value: random.chance(50) ? email.uppercased() : email)
                }
                contact.phoneNumbers = (0..<random.int(0...2)).map { _ in
                    LabeledValue(label: "mobile", value: random.pick(random.pick(Self.phones)!)!)
                }
                setup.add(contact)
                ids.append(contact.identifier)
                for group in groups where random.chance(30) {
                    setup.addMember(contact.identifier, toGroup: group.identifier)
                    memberships[contact.identifier, default: []].insert(group.identifier)
                }
            }
            try await store.execute(setup)
            var model: [String: Modelled] = [:]
            for contact in try await store.contacts(
                withIdentifiers: ids, keysToFetch: [.givenName, .familyName, .emailAddresses, .phoneNumbers])
            {
                model[contact.identifier] = Modelled(
                    given: contact.givenName, family: contact.familyName,
                    emails: contact.emailAddresses.map { ($0.identifier ?? "", $0.value, $0.value.lowercased()) },
                    phones: contact.phoneNumbers.map {
                        ($0.identifier ?? "", $0.value, String($0.value.filter(\.isNumber).suffix(10)))
                    })
            }

            for round in 0..<4 where ids.count >= 2 {
                let survivor = random.pick(ids)!
                var others = ids.filter { $0 != survivor }
                var absorbed: [String] = []
                for _ in 0..<random.int(1...min(3, others.count)) {
                    absorbed.append(others.remove(at: random.int(0...others.count - 1)))
                }
                var request = SaveRequest(transactionAuthor: "merge")
                request.merge(contactsWithIdentifiers: absorbed, into: survivor)
                try await store.execute(request)

                let parts = [survivor] + absorbed
                let modelled = parts.compactMap { model[$0] }
                let expected = Modelled(
                    given: modelled.map(\.given).first { !$0.isEmpty } ?? "",
                    family: modelled.map(\.family).first { !$0.isEmpty } ?? "",
                    emails: [], phones: [])
                let expectedEmails = Self.union(modelled.map(\.emails)).map { "\($0.id)=\($0.value)" }
                let expectedPhones = Self.union(modelled.map(\.phones)).map { "\($0.id)=\($0.value)" }
                let expectedGroups = parts.reduce(into: Set<String>()) { $0.formUnion(memberships[$1] ?? []) }

                let merged = try await store.contact(
                    withIdentifier: survivor, keysToFetch: [.givenName, .familyName, .emailAddresses, .phoneNumbers])
                let context = "seed \(seed) (CARNET_MERGE_SEED=\(seed)) round \(round) on \(kind)"
                #expect(merged.givenName == expected.given, "\(context)")
                #expect(merged.familyName == expected.family, "\(context)")
                #expect(
                    merged.emailAddresses.map { "\($0.identifier ?? "")=\($0.value)" } == expectedEmails, "\(context)")
                #expect(
                    merged.phoneNumbers.map { "\($0.identifier ?? "")=\($0.value)" } == expectedPhones, "\(context)")
                let groupsNow = try await store.groups(ofContacts: [survivor])[survivor] ?? []
                #expect(Set(groupsNow.map(\.identifier)) == expectedGroups, "\(context)")
                let left = try await store.contacts(withIdentifiers: absorbed, keysToFetch: [])
                #expect(left.isEmpty, "\(context)")

                // The model follows: the survivor as the rules made it, the absorbed contacts gone.
                var kept = model[survivor]!
                (kept.given, kept.family) = (expected.given, expected.family)
                kept.emails = Self.union(modelled.map(\.emails))
                kept.phones = Self.union(modelled.map(\.phones))
                model[survivor] = kept
                memberships[survivor] = expectedGroups
                for id in absorbed {
                    model[id] = nil
                    memberships[id] = nil
                }
                ids.removeAll { absorbed.contains($0) }
            }
            #expect(try await store.contactCount() == ids.count, "seed \(seed) on \(kind)")
        }
    }
}
