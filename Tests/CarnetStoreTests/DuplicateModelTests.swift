import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Duplicate candidates, generated: contacts with emails, phones, names, nicknames and organizations drawn from
/// small pools (case, accents and formatting vary), one email and one phone shared past the limit, then edits and
/// deletes. The store's candidates, read in pages of random sizes, must equal a model computed here pair by pair
/// from the documented rules. `CARNET_DUPLICATES_SEED` reruns one seed.
@Suite("Duplicate candidates against a model")
struct DuplicateModelTests {
    static let givens = ["Anna", "ANNA", "Ånna", "Bob", "Robert", "José", "Jose", "Kim", ""]
    static let families = ["Smith", "smith ", "Núñez", "Nunez", "Lee", ""]
    static let nicknames = ["Bob", "bob", "Annie", "Jo", ""]
    static let organizations = ["Initech", "INITECH", "Ácme", "", ""]
    static let emails = ["ann@example.com", "Ann@Example.COM", "bob@example.com", "jo@x.org", "kim@y.net"]
    static let phones = ["+1 (555) 555-1234", "5555551234", "020 7946 0958", "+44 20 7946 0958", "555-0000"]

    static var seeds: [UInt64] { SeededRandom.seeds(from: "CARNET_DUPLICATES_SEED", default: [1, 2, 3]) }

    /// The rules, pair by pair, over every contact: quadratic and obviously so.
    static func model(_ contacts: [Contact]) -> [DuplicateCandidate] {
        func fold(_ text: String) -> String { TextFolding.fold(text).trimmingCharacters(in: .whitespacesAndNewlines) }
        struct Keys {
            var id: String
            var emails: Set<String>
            var phones: Set<String>
            var given, family, nickname, organization: String
            var isOrganization: Bool
        }
        let keys = contacts.map { contact in
            Keys(
                id: contact.identifier,
                emails: Set(
                    contact.emailAddresses.compactMap {
                        EncodedLabeledValue.searchKey(kind: .emailAddresses, value: $0.value)
                    }),
                phones: Set(
                    contact.phoneNumbers.compactMap {
                        EncodedLabeledValue.searchKey(kind: .phoneNumbers, value: $0.value)
                    }),
                given: fold(contact.givenName), family: fold(contact.familyName), nickname: fold(contact.nickname),
                organization: fold(contact.organizationName), isOrganization: contact.contactType == .organization)
        }
        let limit = StoreLimits.duplicateKeySharers
        func sharers(_ holds: (Keys) -> Bool) -> Int { keys.filter(holds).count }
        var candidates: [DuplicateCandidate] = []
        for (index, one) in keys.enumerated() {
            for other in keys[(index + 1)...] {
                var reasons = Set<DuplicateReason>()
                for email in one.emails.intersection(other.emails) where sharers({ $0.emails.contains(email) }) <= limit
                {
                    reasons.insert(DuplicateReason(kind: .emailAddress, value: email))
                }
                for phone in one.phones.intersection(other.phones) where sharers({ $0.phones.contains(phone) }) <= limit
                {
                    reasons.insert(DuplicateReason(kind: .phoneNumber, value: phone))
                }
                if !one.given.isEmpty, !one.family.isEmpty, one.given == other.given, one.family == other.family,
                    sharers({ $0.given == one.given && $0.family == one.family }) <= limit
                {
                    reasons.insert(DuplicateReason(kind: .fullName, value: "\(one.given) \(one.family)"))
                }
                if one.isOrganization, other.isOrganization, !one.organization.isEmpty,
                    one.organization == other.organization,
                    sharers({ $0.isOrganization && $0.organization == one.organization }) <= limit
                {
                    reasons.insert(DuplicateReason(kind: .fullName, value: one.organization))
                }
                if !one.family.isEmpty, !one.organization.isEmpty, one.family == other.family,
                    one.organization == other.organization,
                    sharers({ $0.family == one.family && $0.organization == one.organization }) <= limit
                {
                    reasons.insert(
                        DuplicateReason(kind: .familyNameAndOrganization, value: "\(one.family), \(one.organization)"))
                }
                if !one.family.isEmpty, one.family == other.family {
                    for (nicknamed, named) in [(one, other), (other, one)]
                    where !nicknamed.nickname.isEmpty && nicknamed.nickname == named.given {
                        let name = named.given
                        let count = sharers {
                            $0.family == one.family && ($0.given == name || $0.nickname == name)
                        }
                        if count <= limit {
                            reasons.insert(DuplicateReason(kind: .nickname, value: "\(name) \(one.family)"))
                        }
                    }
                }
                guard !reasons.isEmpty else { continue }
                let (first, second) = one.id < other.id ? (one.id, other.id) : (other.id, one.id)
                candidates.append(
                    DuplicateCandidate(firstIdentifier: first, secondIdentifier: second, reasons: reasons.sorted()))
            }
        }
        return candidates.sorted { left, right in
            if left.scorePoints != right.scorePoints { return left.scorePoints > right.scorePoints }
            return (left.firstIdentifier, left.secondIdentifier) < (right.firstIdentifier, right.secondIdentifier)
        }
    }

    static func contact(_ random: inout SeededRandom) -> Contact {
        var contact = Make.person(
            random.pick(givens)!, random.pick(families)!,
            emails: (0..<random.int(0...2)).map { _ in random.pick(emails)! },
            phones: (0..<random.int(0...2)).map { _ in random.pick(phones)! }, organization: random.pick(organizations)!
        )
        contact.nickname = random.pick(nicknames)!
        if random.chance(15) {
            contact.contactType = .organization
            if random.chance(50) { (contact.givenName, contact.familyName) = ("", "") }
        }
        return contact
    }

    @Test("Candidates match the model", arguments: StoreKind.available)
    func candidatesMatchModel(kind: StoreKind) async throws {
        for seed in Self.seeds {
            try await run(kind: kind, seed: seed)
        }
    }

    func run(kind: StoreKind, seed: UInt64) async throws {
        let store = try await StoreFixture(kind).store
        var random = SeededRandom(seed: seed)
        var live: [String: Contact] = [:]
        var first = (0..<91).map { _ in Self.contact(&random) }
        // Past the limit: one email and one phone number on more contacts than count as evidence.
        // Five more than the limit, so edits and deletes leave it past the limit.
        for index in 0..<(StoreLimits.duplicateKeySharers + 5) {
            first[index].emailAddresses.append(LabeledValue(label: ContactLabel.work, value: "Info@Shared.example"))
            first[index + 30].phoneNumbers.append(LabeledValue(label: ContactLabel.work, value: "+1 800 555 0100"))
        }
        // Past the limit by name: a crowd of "Sam Bulk" at Bulkco, nicknamed Sammy, and one "Sammy Bulk".
        for index in 60..<90 {
            first[index] = Make.person("Sam", "Bulk", organization: "Bulkco")
            first[index].nickname = "Sammy"
        }
        first[90] = Make.person("Sammy", "Bulk")
        try await store.add(first)
        for contact in first { live[contact.identifier] = contact }
        var kindsSeen = Set<DuplicateReasonKind>()
        var limitApplied = false
        for round in 0..<2 {
            let added = (0..<20).map { _ in Self.contact(&random) }
            try await store.add(added)
            for contact in added { live[contact.identifier] = contact }
            var request = SaveRequest()
            var touched = Set<String>()
            for _ in 0..<10 {
                guard let id = random.pick(live.keys.sorted()), touched.insert(id).inserted else { continue }
                if random.chance(40) {
                    request.delete(contactWithIdentifier: id)
                    live[id] = nil
                } else {
                    var contact = try await store.contact(
                        withIdentifier: id,
                        keysToFetch: [.givenName, .familyName, .nickname, .organizationName, .emailAddresses])
                    contact.givenName = random.pick(Self.givens)!
                    contact.nickname = random.pick(Self.nicknames)!
                    contact.emailAddresses = [LabeledValue(label: ContactLabel.home, value: random.pick(Self.emails)!)]
                    request.update(contact)
                    live[id]!.givenName = contact.givenName
                    live[id]!.nickname = contact.nickname
                    live[id]!.emailAddresses = contact.emailAddresses
                }
            }
            try await store.execute(request)
            let expected = Self.model(Array(live.values))
            kindsSeen.formUnion(expected.flatMap { $0.reasons.map(\.kind) })
            limitApplied =
                limitApplied
                || live.values.filter { $0.emailAddresses.contains { $0.value == "Info@Shared.example" } }.count
                    > StoreLimits.duplicateKeySharers
                || live.values.filter { $0.phoneNumbers.contains { $0.value == "+1 800 555 0100" } }.count
                    > StoreLimits.duplicateKeySharers
            let size = random.int(5...40)
            var actual: [DuplicateCandidate] = []
            var cursor: String?
            repeat {
                let page = try await store.duplicateCandidates(DuplicateCandidateRequest(first: size, after: cursor))
                #expect(page.totalCount == expected.count)
                actual += page.candidates
                guard page.hasNextPage, let last = page.candidates.indices.last, actual.count <= expected.count
                else { break }
                cursor = page.cursor(at: last)
            } while true
            let context = "seed \(seed) on \(kind), round \(round), pages of \(size) (CARNET_DUPLICATES_SEED=\(seed))"
            #expect(actual.count == expected.count, "\(context)")
            for (got, want) in zip(actual, expected) where got != want {
                Issue.record("\(context): got \(got), expected \(want)")
                break
            }
        }
        // The generated data must exercise every rule, or the comparison proves little.
        #expect(kindsSeen == Set(DuplicateReasonKind.allCases), "seed \(seed): only \(kindsSeen)")
        #expect(limitApplied, "seed \(seed): no key past the limit")
    }
}
