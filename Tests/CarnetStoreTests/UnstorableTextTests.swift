import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Text no record can hold (U+0000, which PostgreSQL's text cannot even carry as a parameter, and identifiers far
/// past any limit) looks up nothing and is refused with a code on every backend, never an internal error.
@Suite("Lookups with unstorable text")
struct UnstorableTextTests {
    static let probes = ["a\u{0}b", "\u{0}", String(repeating: "x", count: 100_000), "nul\u{0}@example.org"]

    /// `body` succeeds or throws a store error: anything else is a bug the edge would answer as INTERNAL.
    static func coded<T>(_ what: String, _ body: () async throws -> T) async -> T? {
        do {
            return try await body()
        } catch is StoreError {
            return nil
        } catch {
            Issue.record("\(what): \(error)")
            return nil
        }
    }

    @Test("Record lookups, searches and history filters", arguments: StoreKind.available)
    func records(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await store.add([Make.person("Anna", "Smith", emails: ["anna@example.org"], phones: ["+1 555 0100"])])
        let anna = try #require(try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.first)
        for probe in Self.probes {
            await #expect(throws: StoreError.self) { try await store.contact(withIdentifier: probe, keysToFetch: []) }
            await #expect(throws: StoreError.self) { try await store.group(withIdentifier: probe) }
            await #expect(throws: StoreError.self) { try await store.container(ofContact: probe) }
            await #expect(throws: StoreError.self) { try await store.container(ofGroup: probe) }
            let found = await Self.coded("contacts(withIdentifiers:)") {
                try await store.contacts(withIdentifiers: [probe, anna.identifier], keysToFetch: [])
            }
            #expect(found?.map(\.identifier) == [anna.identifier])
            #expect(await Self.coded("groups") { try await store.groups(withIdentifiers: [probe]) }?.isEmpty == true)
            #expect(
                await Self.coded("containers") { try await store.containers(withIdentifiers: [probe]) }?.isEmpty == true
            )
            let groups = await Self.coded("groups(ofContacts:)") { try await store.groups(ofContacts: [probe]) }
            #expect(groups?.values.allSatisfy(\.isEmpty) == true)
            let members = await Self.coded("members") { try await store.members(ofGroups: [probe], keysToFetch: []) }
            #expect(members?.values.allSatisfy(\.isEmpty) == true)
            let counts = await Self.coded("memberCounts") { try await store.memberCounts(ofGroups: [probe]) }
            #expect(counts?.values.allSatisfy { $0 == 0 } == true)
            let uids = await Self.coded("vCard UIDs") { try await store.contactIdentifiers(keepingVCardUIDs: [probe]) }
            #expect(uids?.isEmpty == true)
            _ = await Self.coded("unavailableIdentifiers") { try await store.unavailableIdentifiers([probe]) }
            for predicate in [
                ContactPredicate.matchingName(probe), .matchingEmailAddress(probe), .matchingPhoneNumber(probe),
                .inGroup(probe), .inContainer(probe), .withIdentifiers([probe]),
            ] {
                let page = await Self.coded("search") {
                    try await store.contacts(ContactFetchRequest(predicate: predicate, keysToFetch: []))
                }
                #expect(page.map { $0.contacts.isEmpty } ?? true)
                _ = await Self.coded("count") { try await store.contactCount(matching: predicate) }
                // Text within the limits that holds U+0000 names nothing: an empty page, unified or not, never an
                // error (PostgreSQL's unified path once said a value could not be stored).
                guard probe.utf8.count < 100 else { continue }
                for unify in [false, true] {
                    var request = ContactFetchRequest(predicate: predicate, keysToFetch: [], includeTotalCount: true)
                    request.unifyResults = unify
                    let empty = try await store.contacts(request)
                    #expect(empty.contacts.isEmpty && empty.totalCount == 0, "\(predicate), unify \(unify)")
                }
            }
            let history = await Self.coded("history") {
                try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: probe, excludedAuthors: [probe]))
            }
            #expect(history?.events.first?.kind == .dropEverything)
            var update = SaveRequest(transactionAuthor: probe)
            update.delete(contactWithIdentifier: probe)
            await #expect(throws: StoreError.self) { try await store.execute(update) }
        }
        #expect(try await store.contactCount() == 1)
    }

    @Test("Catalog lookups", arguments: CatalogKind.available)
    func catalog(kind: CatalogKind) async throws {
        try await CatalogFixture.with(kind) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let principals = try await catalog.principals().count
            for probe in Self.probes {
                for (name, authors, principal) in [
                    (probe, [], alice.id), ("phone", [probe], alice.id), ("phone", [], probe),
                ] {
                    await #expect(throws: StoreError.self) {
                        try await catalog.insertAccessToken(
                            AccessTokenRecord(
                                id: "t\(UUID().uuidString.prefix(8))", name: name, secretHash: [1], scopes: ["read"],
                                authors: authors, principalID: principal))
                    }
                }
                #expect(await Self.coded("principal(id:)") { try await catalog.principal(id: probe) } == .some(nil))
                #expect(
                    await Self.coded("principal(named:)") { try await catalog.principal(named: probe) } == .some(nil))
                #expect(await Self.coded("book(id:)") { try await catalog.book(id: probe) } == .some(nil))
                let access = await Self.coded("access") {
                    try await catalog.access(principalID: alice.id, bookID: probe) == nil
                }
                #expect(access == true)
                let token = await Self.coded("accessToken(id:)") { try await catalog.accessToken(id: probe) == nil }
                #expect(token == true)
                #expect(await Self.coded("revoke") { try await catalog.revokeAccessToken(id: probe) } == false)
                #expect(await Self.coded("books") { try await catalog.books(visibleTo: probe) }?.isEmpty == true)
                await #expect(throws: StoreError.self) { try await catalog.createPrincipal(name: probe) }
                await #expect(throws: StoreError.self) { try await catalog.createBook(name: probe, ownerID: alice.id) }
                await #expect(throws: StoreError.self) {
                    try await catalog.share(bookID: probe, with: alice.id, access: .read, by: alice.id)
                }
                await #expect(throws: StoreError.self) { try await catalog.deleteBook(id: probe, by: alice.id) }
                await #expect(throws: StoreError.self) { try await catalog.setDisabled(true, principal: probe) }
                _ = await Self.coded("deletePrincipal") { try await catalog.deletePrincipal(id: probe) }
                _ = await Self.coded("grants") { try await catalog.grants(bookID: probe, by: alice.id) }
                _ = await Self.coded("tokens") { try await catalog.accessTokens(principalID: probe) }
            }
            #expect(try await catalog.principals().count == principals)
            #expect(try await catalog.accessTokens().isEmpty)
        }
    }
}

/// Every value at the largest size a save accepts is stored, indexed, found and sorted on every backend: an index
/// entry has a size limit on PostgreSQL (about 2.7 kB) that SQLite does not have.
@Suite("Values at their limits")
struct ValuesAtLimitsTests {
    @Test(
        "Names, emails and kept vCard UIDs at their limits: saved, found, sorted, paged", arguments: StoreKind.available
    )
    func largest(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        // Two bytes a character, folded to one: the sort key is built from three full names.
        let long = String(repeating: "é", count: StoreLimits.singleLineBytes / 2)
        var contacts: [Contact] = []
        for index in 0..<3 {
            var contact = Contact()
            contact.givenName = long
            contact.familyName = String(long.dropLast()) + "\(index)"
            contact.middleName = long
            contact.organizationName = long
            contact.nickname = String(repeating: "z", count: StoreLimits.singleLineBytes)
            let local = String(repeating: "a", count: 64 - 1) + "\(index)"
            let email = local + "@" + String(repeating: "b", count: StoreLimits.emailBytes - 67) + ".o"
            contact.emailAddresses = [
                LabeledValue(label: String(repeating: "l", count: StoreLimits.labelBytes), value: email)
            ]
            contact.vCardProperties = [
                LabeledValue(value: "UID:" + String(repeating: "u", count: 1_000_000) + "\(index)")
            ]
            contacts.append(contact)
        }
        var request = SaveRequest(transactionAuthor: String(repeating: "w", count: StoreLimits.labelBytes))
        for contact in contacts { request.add(contact) }
        try await store.execute(request)
        var group = Group(name: long)
        var groupRequest = SaveRequest()
        groupRequest.add(group)
        try await store.execute(groupRequest)
        group = try #require(try await store.groups().first)
        #expect(group.name == long)

        let email = try #require(contacts[1].emailAddresses.first?.value)
        let byEmail = try await store.contacts(
            ContactFetchRequest(predicate: .matchingEmailAddress(email.uppercased()), keysToFetch: []))
        #expect(byEmail.contacts.map(\.identifier) == [contacts[1].identifier])
        let byName = try await store.contacts(
            ContactFetchRequest(predicate: .matchingName("ee zzz"), keysToFetch: [], sortOrder: .familyName))
        #expect(byName.contacts.count == 3)
        for order in [ContactSortOrder.givenName, .familyName] {
            var ids: [String] = []
            var after: String?
            repeat {
                let page = try await store.contacts(
                    ContactFetchRequest(keysToFetch: [.familyName], sortOrder: order, page: .first(1, after: after)))
                ids += page.contacts.map(\.identifier)
                after = page.hasNextPage ? page.cursors.last : nil
            } while after != nil
            #expect(Set(ids) == Set(contacts.map(\.identifier)) && ids.count == 3, "\(order)")
        }
        let fetched = try await store.contact(withIdentifier: contacts[2].identifier, keysToFetch: .all)
        #expect(
            fetched.givenName == long && fetched.vCardProperties.first?.value == contacts[2].vCardProperties[0].value)
        var update = fetched
        update.familyName = long
        var updating = SaveRequest()
        updating.update(update)
        try await store.execute(updating)
    }
}
