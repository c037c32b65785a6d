import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Linking contacts into unified contacts")
struct LinkingTests {
    func save(_ body: (inout SaveRequest) -> Void) -> SaveRequest {
        var request = SaveRequest(transactionAuthor: "linker")
        body(&request)
        return request
    }

    /// Adds a second container and returns its identifier.
    func otherContainer(_ store: any ContactStore) async throws -> String {
        try await store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
    }

    /// Links the contacts and returns the unified identifier.
    func link(_ store: any ContactStore, _ identifiers: [String]) async throws -> String {
        let result = try await store.execute(save { $0.link(contactsWithIdentifiers: identifiers) })
        return try #require(result.recordIdentifiers.first)
    }

    @Test(
        "Linked contacts of two containers read as one, with values put together by the rules",
        arguments: StoreKind.available)
    func synthesis(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await otherContainer(store)
        var home = Make.person("Anna", "Smith", emails: ["anna@example.com"], phones: ["+1 555 555 1234"])
        home.note = "Home card"
        var office = Make.person("Annie", "Smyth", emails: ["ANNA@example.com", "anna@work.example"])
        office.jobTitle = "Engineer"
        office.imageData = Data(repeating: 7, count: 32)
        try await store.add([home])
        try await store.add([office], container: work)

        let unified = try await link(store, [home.identifier, office.identifier])
        #expect(unified != home.identifier && unified != office.identifier)

        let found = try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true)
        let contact = try #require(found.first)
        #expect(contact.identifier == unified)
        #expect(contact.isUnified)
        #expect(contact.linkedContactIdentifiers == [home.identifier, office.identifier])
        // The name comes whole from the first (name-preferred) member; the rest from whoever has it.
        #expect(contact.givenName == "Anna" && contact.familyName == "Smith")
        #expect(contact.jobTitle == "Engineer")
        #expect(contact.note == "Home card")
        #expect(contact.imageData == Data(repeating: 7, count: 32))
        #expect(contact.emailAddresses.map(\.value) == ["anna@example.com", "anna@work.example"])
        let officeRead = try await store.contact(withIdentifier: office.identifier, keysToFetch: .all)
        #expect(contact.emailAddresses[1].identifier == officeRead.emailAddresses[1].identifier)

        // A member's identifier gives the unified contact too; without unification, the member itself.
        let viaMember = try await store.contacts(
            withIdentifiers: [office.identifier], keysToFetch: [.givenName], unify: true)
        #expect(viaMember.map(\.identifier) == [unified])
        let plain = try await store.contacts(
            withIdentifiers: [office.identifier], keysToFetch: [.givenName], unify: false)
        #expect(plain.map(\.givenName) == ["Annie"])
        #expect(plain.first?.isUnified == false)

        // Preferring the other member for name changes the name and the place in sort orders.
        try await store.execute(save { $0.setPreferredForName(contactWithIdentifier: office.identifier) })
        let renamed = try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true)
        #expect(renamed.first?.givenName == "Annie" && renamed.first?.familyName == "Smyth")
        #expect(renamed.first?.note == "Home card")
    }

    @Test(
        "Pages and searches show a unified contact once, where its name-preferred member sorts",
        arguments: StoreKind.available)
    func pagingAndSearch(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await otherContainer(store)
        let anna = Make.person("Anna", "Smith", emails: ["anna@example.com"])
        let bob = Make.person("Bob", "Jones")
        let annaWork = Make.person("Zed", "Zulu", emails: ["zed@work.example"])
        let carl = Make.person("Carl", "Young")
        try await store.add([anna, bob, carl])
        try await store.add([annaWork], container: work)
        let unified = try await link(store, [anna.identifier, annaWork.identifier])

        for order in [ContactSortOrder.none, .givenName, .familyName] {
            var ids: [String] = []
            var cursor: String?
            repeat {
                var request = ContactFetchRequest(
                    keysToFetch: [.givenName], sortOrder: order, page: .first(1, after: cursor),
                    includeTotalCount: true)
                request.unifyResults = true
                let page = try await store.contacts(request)
                #expect(page.totalCount == 3)
                ids += page.contacts.map(\.identifier)
                cursor = page.hasNextPage ? page.cursors.last : nil
            } while cursor != nil
            #expect(Set(ids) == [unified, bob.identifier, carl.identifier], "order \(order)")
            #expect(ids.count == 3)
        }
        var byGiven = ContactFetchRequest(keysToFetch: [.givenName], sortOrder: .givenName, page: .first(10))
        byGiven.unifyResults = true
        #expect(try await store.contacts(byGiven).contacts.map(\.givenName) == ["Anna", "Bob", "Carl"])

        // A search that only another member matches finds the unified contact, with the preferred name.
        for predicate in [
            ContactPredicate.matchingName("zed"), .matchingEmailAddress("zed@work.example"),
            .matchingName("anna"), .matchingEmailAddress("ANNA@example.com"),
        ] {
            var search = ContactFetchRequest(
                predicate: predicate, keysToFetch: [.givenName], sortOrder: .givenName, page: .first(10),
                includeTotalCount: true)
            search.unifyResults = true
            let page = try await store.contacts(search)
            #expect(page.contacts.map(\.identifier) == [unified], "\(predicate)")
            #expect(page.contacts.first?.givenName == "Anna")
            #expect(page.totalCount == 1)
            search.unifyResults = false
            let individual = try await store.contacts(search).contacts.map(\.identifier)
            #expect(individual.count == 1 && individual != [unified])
        }
    }

    @Test(
        "An update through the unified identifier reaches the member that holds each value",
        arguments: StoreKind.available)
    func updateThrough(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await otherContainer(store)
        let home = Make.person("Anna", "Smith", emails: ["anna@example.com"])
        var office = Make.person("Anna", "Smith", emails: ["anna@work.example"])
        office.jobTitle = "Engineer"
        try await store.add([home])
        try await store.add([office], container: work)
        let unified = try await link(store, [home.identifier, office.identifier])
        let before = try #require(
            try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true).first)

        var update = Contact(updating: unified)
        update.jobTitle = "Director"
        update.givenName = "Anne"
        // Drops the home address, keeps the work one, adds a new one.
        update.emailAddresses = [
            before.emailAddresses[1], LabeledValue(label: ContactLabel.other, value: "new@example.com"),
        ]
        try await store.execute(save { $0.update(update) })

        let homeNow = try await store.contact(withIdentifier: home.identifier, keysToFetch: .all)
        let officeNow = try await store.contact(withIdentifier: office.identifier, keysToFetch: .all)
        #expect(homeNow.givenName == "Anne")
        #expect(officeNow.givenName == "Anna")
        #expect(officeNow.jobTitle == "Director")
        #expect(homeNow.jobTitle == "")
        #expect(homeNow.emailAddresses.map(\.value) == ["new@example.com"])
        #expect(officeNow.emailAddresses.map(\.value) == ["anna@work.example"])
        #expect(officeNow.emailAddresses.first?.identifier == before.emailAddresses[1].identifier)

        // An identifier that no member holds is refused; nothing is written.
        var bad = Contact(updating: unified)
        bad.emailAddresses = [LabeledValue(identifier: "no-such-value", label: nil, value: "x@example.com")]
        let error = await refusal(store, save { $0.update(bad) })
        #expect(error?.code == .recordIdentifierInvalid)
        #expect(try await store.contact(withIdentifier: home.identifier, keysToFetch: .all).emailAddresses.count == 1)
    }

    /// The hidden duplicate stayed as it was, so the address the user edited away showed again beside the new one
    /// (an outside tester's find).
    @Test(
        "A value edited through the unified identifier takes its hidden duplicates with it; one kept as is stays hidden",
        arguments: StoreKind.available)
    func editHiddenDuplicate(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let home = Make.person("Anna", "Smith", emails: ["c@y.org", "keep@y.org"])
        let office = Make.person("Anna", "Smith", emails: ["C@Y.org", "KEEP@y.org"])
        try await store.add([home, office])
        let unified = try await link(store, [home.identifier, office.identifier])
        let before = try #require(
            try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true).first)
        #expect(before.emailAddresses.map(\.value) == ["c@y.org", "keep@y.org"])
        let officeBefore = try await store.contact(withIdentifier: office.identifier, keysToFetch: .all)

        var update = Contact(updating: unified)
        var edited = before.emailAddresses[0]
        edited.value = "new@y.org"
        update.emailAddresses = [edited, before.emailAddresses[1]]
        try await store.execute(save { $0.update(update) })

        let shown = try #require(
            try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true).first)
        #expect(shown.emailAddresses.map(\.value) == ["new@y.org", "keep@y.org"])
        #expect(shown.emailAddresses.first?.identifier == edited.identifier)
        let officeNow = try await store.contact(withIdentifier: office.identifier, keysToFetch: .all)
        #expect(officeNow.emailAddresses.map(\.value) == ["new@y.org", "KEEP@y.org"])
        // Its values keep their identifiers: the edit is an edit on that member too.
        #expect(officeNow.emailAddresses.map(\.identifier) == officeBefore.emailAddresses.map(\.identifier))
    }

    @Test(
        "Clearing through the unified identifier clears every member's value, the image too; a name only the preferred member's",
        arguments: StoreKind.available)
    func clearThrough(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var home = Make.person("Anna", "Smith")
        home.imageData = Data(repeating: 1, count: 16)
        home.thumbnailImageData = Data(repeating: 2, count: 8)
        home.jobTitle = "Engineer"
        home.nickname = "Annie"
        var office = Make.person("Anna", "Smith")
        office.imageData = Data(repeating: 3, count: 16)
        office.thumbnailImageData = Data(repeating: 4, count: 8)
        office.jobTitle = "Director"
        office.nickname = "Nan"
        try await store.add([home, office])
        let unified = try await link(store, [home.identifier, office.identifier])

        var update = Contact(updating: unified)
        update.imageData = nil
        update.thumbnailImageData = nil
        update.jobTitle = ""
        update.nickname = ""
        try await store.execute(save { $0.update(update) })

        let shown = try #require(
            try await store.contacts(withIdentifiers: [unified], keysToFetch: .all, unify: true).first)
        #expect(shown.imageData == nil && shown.thumbnailImageData == nil && !shown.imageDataAvailable)
        #expect(shown.jobTitle == "" && shown.nickname == "")
        let homeNow = try await store.contact(withIdentifier: home.identifier, keysToFetch: .all)
        let officeNow = try await store.contact(withIdentifier: office.identifier, keysToFetch: .all)
        for member in [homeNow, officeNow] {
            #expect(member.imageData == nil && member.thumbnailImageData == nil, "\(member.identifier)")
            #expect(member.jobTitle == "")
        }
        // Names show only from the name-preferred member: the other keeps its own.
        #expect(homeNow.nickname == "" && officeNow.nickname == "Nan")

        // Setting an image again writes it to one member only.
        var again = Contact(updating: unified)
        again.imageData = Data(repeating: 5, count: 16)
        try await store.execute(save { $0.update(again) })
        let images = try await store.contacts(
            withIdentifiers: [home.identifier, office.identifier], keysToFetch: [.imageData], unify: false
        ).compactMap(\.imageData)
        #expect(images == [Data(repeating: 5, count: 16)])
    }

    @Test("A membership naming a unified contact is LINK_INVALID and writes nothing", arguments: StoreKind.available)
    func membershipOfUnified(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let (home, office) = (Make.person("Anna", "Smith"), Make.person("Anna", "Smith"))
        let group = Group(name: "Friends")
        try await store.add([home, office])
        try await store.execute(save { $0.add(group) })
        let unified = try await link(store, [home.identifier, office.identifier])
        let before = try await store.currentHistoryToken()
        for add in [true, false] {
            let error = await refusal(
                store,
                save {
                    if add {
                        $0.addMember(unified, toGroup: group.identifier)
                    } else {
                        $0.removeMember(unified, fromGroup: group.identifier)
                    }
                })
            #expect(error?.code == .linkInvalid)
            #expect(error?.affectedRecordIdentifiers == [unified])
        }
        #expect(try await store.currentHistoryToken() == before)
        // A member is added as any contact is.
        try await store.execute(save { $0.addMember(office.identifier, toGroup: group.identifier) })
        #expect(
            try await store.groups(ofContacts: [office.identifier])[office.identifier]?.map(\.identifier) == [
                group.identifier
            ])
    }

    @Test("Unlinking, deleting members and deleting the unified contact", arguments: StoreKind.available)
    func unlinkAndDelete(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let a = Make.person("Ada", "One")
        let b = Make.person("Ada", "Two")
        let c = Make.person("Ada", "Three")
        try await store.add([a, b, c])
        let unified = try await link(store, [a.identifier, b.identifier, c.identifier])

        // Unlinking the name-preferred member: the next oldest takes over, the identifier stays.
        try await store.execute(save { $0.unlink(contactWithIdentifier: a.identifier) })
        let group = try #require(try await store.linkGroups(containing: [unified]).first)
        #expect(group.members == [b.identifier, c.identifier])
        #expect(group.preferredForName == b.identifier)
        #expect(try await store.linkGroups(containing: [a.identifier]).isEmpty)

        // Deleting a member of a pair ends the unified contact; its identifier is never used again.
        try await store.execute(save { $0.delete(contactWithIdentifier: c.identifier) })
        #expect(try await store.linkGroups(containing: [unified, b.identifier]).isEmpty)
        #expect(try await store.unavailableIdentifiers([unified]) == [unified])
        let reused = await refusal(store, save { $0.add(Contact(identifier: unified)) })
        #expect(reused?.code == .insertedRecordAlreadyExists)

        // Deleting a unified contact deletes every member.
        let d = Make.person("Dee", "Four")
        try await store.add([d])
        let again = try await link(store, [a.identifier, d.identifier])
        let result = try await store.execute(save { $0.delete(contactWithIdentifier: again) })
        #expect(result.recordIdentifiers == [again])
        #expect(try await store.contacts(withIdentifiers: [a.identifier, d.identifier], keysToFetch: []).isEmpty)
        #expect(try await store.contactCount() == 1)
    }

    @Test(
        "Bad link operations are refused with their code and identifiers; nothing is written",
        arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let a = Make.person("Ada", "One")
        let b = Make.person("Ada", "Two")
        let c = Make.person("Ada", "Three")
        try await store.add([a, b, c])
        let token = try await store.currentHistoryToken()

        let itself = await refusal(store, save { $0.link(contactsWithIdentifiers: [a.identifier, a.identifier]) })
        #expect(itself?.code == .linkInvalid)
        #expect(itself?.affectedRecordIdentifiers == [a.identifier, a.identifier])
        let alone = await refusal(store, save { $0.link(contactsWithIdentifiers: [a.identifier]) })
        #expect(alone?.code == .linkInvalid)
        let missing = await refusal(store, save { $0.link(contactsWithIdentifiers: [a.identifier, "nope"]) })
        #expect(missing?.code == .recordDoesNotExist)
        #expect(missing?.affectedRecordIdentifiers == ["nope"])
        let notLinked = await refusal(store, save { $0.unlink(contactWithIdentifier: b.identifier) })
        #expect(notLinked?.code == .linkInvalid)
        #expect(notLinked?.affectedRecordIdentifiers == [b.identifier])

        let unified = try await link(store, [a.identifier, b.identifier])
        let member = await refusal(store, save { $0.link(contactsWithIdentifiers: [unified, b.identifier]) })
        #expect(member?.code == .linkInvalid)
        let unlinkUnified = await refusal(store, save { $0.unlink(contactWithIdentifier: unified) })
        #expect(unlinkUnified?.code == .linkInvalid)
        // A merge joins stored contacts: a unified contact's identifier, on either side, is named as such (an outside
        // tester found it answered as a contact that does not exist).
        let mergeInto = await refusal(store, save { $0.merge(contactsWithIdentifiers: [c.identifier], into: unified) })
        #expect(mergeInto?.code == .linkInvalid && mergeInto?.affectedRecordIdentifiers == [unified])
        let mergeFrom = await refusal(store, save { $0.merge(contactsWithIdentifiers: [unified], into: c.identifier) })
        #expect(mergeFrom?.code == .linkInvalid && mergeFrom?.affectedRecordIdentifiers == [unified])
        // A failing operation later in the request undoes an earlier link.
        let partial = await refusal(
            store,
            save {
                $0.link(contactsWithIdentifiers: [unified, c.identifier])
                $0.unlink(contactWithIdentifier: "nope")
            })
        #expect(partial?.code == .recordDoesNotExist)
        #expect(try await store.linkGroups(containing: [c.identifier]).isEmpty)
        let history = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token))
        // Only the one link that committed shows: an update of each member.
        #expect(Set(history.events.compactMap(\.contact?.identifier)) == [a.identifier, b.identifier])
    }

    @Test(
        "Contacts linked into one unified contact are no duplicate candidates any more", arguments: StoreKind.available)
    func linkedAreNoCandidates(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await otherContainer(store)
        let home = Make.person("Ada", "Lovelace", emails: ["ada@example.com"])
        let office = Make.person("Augusta", "King", emails: ["ADA@example.com"])
        let other = Make.person("Ada", "Lovelace")
        try await store.add([home, other])
        try await store.add([office], container: work)
        let before = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 10))
        #expect(before.totalCount == 2)
        _ = try await link(store, [home.identifier, office.identifier])
        let after = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 10))
        // The pair by name stays: `other` is not linked.
        #expect(after.totalCount == 1)
        #expect(
            after.candidates.map { Set([$0.firstIdentifier, $0.secondIdentifier]) } == [
                [home.identifier, other.identifier]
            ])
    }
}
