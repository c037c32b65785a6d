import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Duplicate candidates")
struct DuplicateCandidateTests {
    /// Every candidate of the book, through pages of `size`.
    static func all(_ store: any ContactStore, pageSize size: Int = 1000) async throws -> [DuplicateCandidate] {
        var candidates: [DuplicateCandidate] = []
        var cursor: String?
        repeat {
            let page = try await store.duplicateCandidates(DuplicateCandidateRequest(first: size, after: cursor))
            candidates += page.candidates
            guard page.hasNextPage, let last = page.candidates.indices.last else { break }
            cursor = page.cursor(at: last)
        } while true
        return candidates
    }

    static func pair(_ one: Contact, _ other: Contact) -> [String] { [one.identifier, other.identifier].sorted() }

    @Test("Each reason is found, with the shared folded key", arguments: StoreKind.available)
    func eachReason(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let email = [
            Make.person("A", "One", emails: ["Ann@Example.com"]), Make.person("B", "Two", emails: ["ann@example.COM"]),
        ]
        let phone = [
            Make.person("C", "Three", phones: ["+1 (555) 555-1234"]), Make.person("D", "Four", phones: ["5555551234"]),
        ]
        let name = [Make.person("José", "Núñez"), Make.person("JOSE", "Nunez ")]
        var acme = Make.person("", "", organization: "Ácme Corp")
        acme.contactType = .organization
        var acme2 = Make.person("", "", organization: "acme corp")
        acme2.contactType = .organization
        let work = [
            Make.person("Kim", "Lee", organization: "Initech"), Make.person("Kimberly", "Lee", organization: "INITECH"),
        ]
        var robert = Make.person("Robert", "Brown")
        robert.nickname = "Bob"
        let bob = Make.person("Bob", "Brown")
        let loner = Make.person("Nobody", "Alone", emails: ["alone@example.com"], phones: ["999"])
        try await store.add(email + phone + name + [acme, acme2] + work + [robert, bob, loner])

        let candidates = try await Self.all(store)
        let byPair = Dictionary(uniqueKeysWithValues: candidates.map { ($0.identifiers, $0.reasons) })
        #expect(byPair.count == 6, "\(candidates)")
        #expect(
            byPair[Self.pair(email[0], email[1])] == [DuplicateReason(kind: .emailAddress, value: "ann@example.com")])
        #expect(byPair[Self.pair(phone[0], phone[1])] == [DuplicateReason(kind: .phoneNumber, value: "5555551234")])
        #expect(byPair[Self.pair(name[0], name[1])] == [DuplicateReason(kind: .fullName, value: "jose nunez")])
        #expect(byPair[Self.pair(acme, acme2)] == [DuplicateReason(kind: .fullName, value: "acme corp")])
        #expect(
            byPair[Self.pair(work[0], work[1])] == [
                DuplicateReason(kind: .familyNameAndOrganization, value: "lee, initech")
            ])
        #expect(byPair[Self.pair(robert, bob)] == [DuplicateReason(kind: .nickname, value: "bob brown")])
        for candidate in candidates {
            #expect(candidate.firstIdentifier < candidate.secondIdentifier)
            #expect(candidate.score == candidate.reasons[0].kind.weight)
        }
        // Highest score first: the email pair, then the phone pair, the names, the organization, the nickname.
        #expect(
            candidates.map(\.reasons[0].kind) == [
                .emailAddress, .phoneNumber, .fullName, .fullName, .familyNameAndOrganization, .nickname,
            ])
    }

    @Test("Weights of distinct reasons are summed, up to 1", arguments: StoreKind.available)
    func weightsSummed(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        // Name and organization: 0.4 + 0.3.
        let named = [
            Make.person("Ann", "Lee", organization: "Initech"), Make.person("ann", "LEE", organization: "Initech"),
        ]
        // Two emails and a phone: 0.6 + 0.5, capped; the second email adds a reason, not weight.
        let strong = [
            Make.person("X", "Q", emails: ["x@a.com", "x@b.com"], phones: ["+1 555 000 1111"]),
            Make.person("Y", "R", emails: ["X@A.com", "x@B.com"], phones: ["555-000-1111"]),
        ]
        try await store.add(named + strong)
        let candidates = try await Self.all(store)
        #expect(candidates.count == 2)
        #expect(candidates.first?.identifiers == Self.pair(strong[0], strong[1]))
        #expect(candidates.first?.scorePoints == 100)
        #expect(candidates.first?.reasons.map(\.kind) == [.emailAddress, .emailAddress, .phoneNumber])
        #expect(candidates.last?.identifiers == Self.pair(named[0], named[1]))
        #expect(candidates.last?.scorePoints == 70)
        #expect(candidates.last?.score == 0.7)
    }

    @Test("A key shared by more contacts than the limit is no evidence", arguments: StoreKind.available)
    func sharingLimit(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let limit = StoreLimits.duplicateKeySharers
        let office = (0...limit).map {
            Make.person("P\($0)", "Staff\($0)", emails: ["info@example.com"], phones: ["020 7946 0000"])
        }
        let pair = (0..<limit).map { Make.person("Q\($0)", "Team\($0)", emails: ["team@example.com"]) }
        // Names past the limit: the full name, the family name and organization, and the nickname "Sammy Bulk".
        var crowd = (0...limit).map { _ in Make.person("Sam", "Bulk", organization: "Bulkco") }
        for index in crowd.indices { crowd[index].nickname = "Sammy" }
        crowd.append(Make.person("Sammy", "Bulk"))
        try await store.add(office + pair + crowd)
        let candidates = try await Self.all(store)
        // The office's and crowd's keys (limit + 1 contacts) give nothing; the team's (exactly the limit) every pair.
        #expect(candidates.count == limit * (limit - 1) / 2)
        #expect(
            candidates.allSatisfy { $0.reasons == [DuplicateReason(kind: .emailAddress, value: "team@example.com")] })
    }

    @Test("Deleted contacts and changed values leave no candidates", arguments: StoreKind.available)
    func deletedAndChanged(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contacts = [
            Make.person("Ann", "Lee", emails: ["ann@example.com"]),
            Make.person("Ann", "Lee", emails: ["ann@example.com"]),
            Make.person("Bo", "Kim", phones: ["555 123 4567"]), Make.person("Bea", "Kim", phones: ["5551234567"]),
        ]
        try await store.add(contacts)
        #expect(try await Self.all(store).count == 2)
        var request = SaveRequest()
        request.delete(contactWithIdentifier: contacts[0].identifier)
        var changed = try await store.contact(withIdentifier: contacts[3].identifier, keysToFetch: [.phoneNumbers])
        changed.phoneNumbers = [LabeledValue(label: ContactLabel.phoneMobile, value: "555 999 0000")]
        request.update(changed)
        try await store.execute(request)
        #expect(try await Self.all(store).isEmpty)
    }

    @Test("Pages give every pair once, in order", arguments: StoreKind.available)
    func paging(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        // Ten families of three with a shared phone, some also sharing an email: 30 pairs, two scores.
        var contacts: [Contact] = []
        for family in 0..<10 {
            for member in 0..<3 {
                contacts.append(
                    Make.person(
                        "G\(family)\(member)", "F\(family)\(member)",
                        emails: family % 2 == 0 ? ["f\(family)@x.com"] : [],
                        phones: ["555 000 00\(family)0"]))
            }
        }
        try await store.add(contacts)
        let whole = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 1000))
        #expect(whole.totalCount == 30)
        #expect(!whole.hasNextPage)
        let expected = whole.candidates.sorted { left, right in
            if left.scorePoints != right.scorePoints { return left.scorePoints > right.scorePoints }
            return (left.firstIdentifier, left.secondIdentifier) < (right.firstIdentifier, right.secondIdentifier)
        }
        #expect(whole.candidates == expected)
        #expect(Set(whole.candidates.map(\.identifiers)).count == 30)
        for size in [1, 4, 7, 30] {
            let paged = try await Self.all(store, pageSize: size)
            #expect(paged == whole.candidates, "pages of \(size)")
        }
        let first = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 4))
        #expect(first.hasNextPage && !first.hasPreviousPage)
        let second = try await store.duplicateCandidates(
            DuplicateCandidateRequest(first: 4, after: first.cursor(at: 3)))
        #expect(second.hasPreviousPage)
        #expect(second.candidates == Array(whole.candidates[4..<8]))
    }

    @Test("Contacts that share many keys list ten of each kind, and page as usual", arguments: StoreKind.available)
    func manySharedKeys(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        // Twenty contacts sharing thirty emails and thirty phone numbers: 190 pairs of 60 shared keys each.
        let emails = (0..<30).map { "shared\($0)@example.com" }
        let phones = (0..<30).map { "555 100 \(1000 + $0)" }
        try await store.add((0..<20).map { Make.person("P\($0)", "Many\($0)", emails: emails, phones: phones) })
        let whole = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 1000))
        #expect(whole.totalCount == 190)
        for candidate in whole.candidates {
            #expect(candidate.scorePoints == 100)
            #expect(candidate.reasons.filter { $0.kind == .emailAddress }.count == StoreLimits.duplicateReasonsPerKind)
            #expect(candidate.reasons.filter { $0.kind == .phoneNumber }.count == StoreLimits.duplicateReasonsPerKind)
            #expect(Set(candidate.reasons).count == candidate.reasons.count)
            #expect(candidate.reasons == candidate.reasons.sorted())
        }
        #expect(try await Self.all(store, pageSize: 7) == whole.candidates)
        let one = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 1))
        #expect(one.candidates.map(\.identifiers) == [whole.candidates[0].identifiers])
        #expect(one.hasNextPage && one.totalCount == 190)
    }

    @Test("Past the most pairs a search may rank, it fails with MAX_DUPLICATE_PAIRS_EXCEEDED")
    func pairLimit() throws {
        let contacts = (0..<20).map { "c\($0)" }
        let email = DuplicateFinder.SharedKey(kind: .emailAddress, value: "a@example.com", contacts: contacts)
        let phone = DuplicateFinder.SharedKey(kind: .phoneNumber, value: "5551234", contacts: contacts.reversed())
        var within = DuplicateFinder(pairLimit: 190)
        try within.add(email)
        // The same pairs again: more reasons, no more pairs.
        try within.add(phone)
        let page = try within.page(DuplicateCandidateRequest(first: 1000), storeID: "s")
        #expect(page.totalCount == 190)
        #expect(page.candidates.allSatisfy { $0.reasons.map(\.kind) == [.emailAddress, .phoneNumber] })
        #expect(page.candidates.allSatisfy { $0.firstIdentifier < $0.secondIdentifier })

        var past = DuplicateFinder(pairLimit: 189)
        let error = #expect(throws: StoreError.self) { try past.add(email) }
        #expect(error?.code == .duplicatePairsExceeded)
        #expect(error?.code.rawValue == "MAX_DUPLICATE_PAIRS_EXCEEDED")
    }

    @Test("A bad cursor or page size is PREDICATE_INVALID", arguments: StoreKind.available)
    func badRequests(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contactCursor = ContactCursor(order: .none, rowid: 1, identifier: "a", sortKey: "").encoded(storeID: "s")
        for after in ["", "not a cursor", contactCursor, "ZDF8MTAxfGF8Yg"] {
            await #expect(throws: StoreError.self, "cursor \(after)") {
                do {
                    _ = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 10, after: after))
                } catch let error as StoreError {
                    #expect(error.code == .predicateInvalid)
                    throw error
                }
            }
        }
        for first in [0, -1, StoreLimits.pageSize + 1] {
            await #expect(throws: StoreError.self) {
                do {
                    _ = try await store.duplicateCandidates(DuplicateCandidateRequest(first: first))
                } catch let error as StoreError {
                    #expect(error.code == .predicateInvalid)
                    throw error
                }
            }
        }
    }
}
