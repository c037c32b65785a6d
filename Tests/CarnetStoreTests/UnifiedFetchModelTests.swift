import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Linked contacts, generated: contacts in several containers with names, emails and phones drawn from small
/// pools, then a random schedule of links (of contacts, unified contacts or members), unlinks, preferences,
/// deletions (of a member, of a unified contact), renames of members and updates through unified identifiers.
/// After every step the store must agree with a model of plain dictionaries written here from the documented rules
/// (not from `LinkPlan`, `UnifiedContact` or `UnifiedUpdate`): the link groups; every unified page, in each sort
/// order, paged forwards and backwards in small pages, giving each unified contact once in its name-preferred
/// member's place; searches (name, email, phone, group, identifiers, container) giving each unified contact with a
/// matching member once; the unified contacts' values; and, with unification off, the individual contacts
/// unchanged. `CARNET_UNIFY_SEED` runs one seed (`7`), a list (`1,5,9`) or a range (`1...20`); a failure prints
/// its seed and step.
@Suite("Unified fetches against a model")
struct UnifiedFetchModelTests {
    static let givenNames = ["Ada", "Ann", "Anna", "Annabel", "Grace", "Alan", "José", ""]
    static let familyNames = ["Lovelace", "Hopper", "Turing", "Hope", "Smith", ""]
    static let jobs = ["", "", "Engineer", "Admiral", "Analyst"]
    static let emails = [
        "ada@example.com", "grace@navy.example", "alan@bletchley.example", "team@example.com", "ann@example.org",
        "hope@example.net",
    ]
    /// Each number in forms that are the same national number.
    static let phones = [
        ["+1 555 555 0101", "(555) 555-0101", "5555550101"], ["+44 20 7946 0958", "020 7946 0958"],
        ["+1 555 555 0199", "555.555.0199"], ["+1 555 555 0142", "555-555-0142"],
    ]
    static let orders: [ContactSortOrder] = [.none, .givenName, .familyName]
    static let keys: ContactKeySet = [
        .givenName, .familyName, .jobTitle, .emailAddresses, .phoneNumbers, .imageData,
    ]

    static var seeds: [UInt64] { SeededRandom.seeds(from: "CARNET_UNIFY_SEED", default: [1, 2, 3]) }

    static func emailKey(_ email: String) -> String { email.lowercased() }
    static func phoneKey(_ phone: String) -> String { String(phone.filter(\.isNumber).suffix(10)) }

    // MARK: The model

    /// An individual contact as the model holds it.
    struct Person {
        var given: String
        var family: String
        var job: String
        var emails: [String]
        var phones: [String]
        var image: Data?
        let container: String
        /// Creation order: members are listed oldest first.
        let created: Int
    }

    /// A unified contact as the model holds it.
    struct Unified: Equatable {
        var members: [String]
        var forName: String
        var forImage: String
        /// The name-preferred member, then the others oldest first.
        var valueOrder: [String] { [forName] + members.filter { $0 != forName } }
    }

    /// What a fetch should give for a contact or unified contact.
    struct Shown: Equatable, CustomStringConvertible {
        var given: String
        var family: String
        var job: String
        var emails: [String]
        var phones: [String]
        var image: Data?
        var linked: [String]
        var container: String

        var description: String {
            "\(given)|\(family)|\(job)|\(emails)|\(phones)|\(image.map { String(decoding: $0, as: UTF8.self) } ?? "-")"
                + "|\(linked)|\(container)"
        }
    }

    struct Model {
        var people: [String: Person] = [:]
        var groups: [String: Unified] = [:]
        /// Retired unified identifiers, in the order they ended.
        var retired: [String] = []
        var groupMembers: [String: Set<String>] = [:]

        func group(of contact: String) -> String? {
            groups.first { $0.value.members.contains(contact) }?.key
        }

        /// The unit (unified identifier, or the contact itself when not linked) an identifier names, if any.
        func unit(named identifier: String) -> String? {
            if groups[identifier] != nil { return identifier }
            guard people[identifier] != nil else { return nil }
            return group(of: identifier) ?? identifier
        }

        /// The contact that stands for the unit in pages.
        func representative(_ unit: String) -> String { groups[unit]?.forName ?? unit }

        func members(_ unit: String) -> [String] { groups[unit]?.members ?? [unit] }

        /// Every unit, by its oldest member's age. The schedule picks from these orders only (identifiers are
        /// fresh in every run), so a seed replays the same schedule.
        var units: [String] {
            let linked = Set(groups.values.flatMap(\.members))
            let units = Array(groups.keys) + people.keys.filter { !linked.contains($0) }
            return units.sorted { people[members($0)[0]]!.created < people[members($1)[0]]!.created }
        }

        var unifiedIds: [String] { units.filter { groups[$0] != nil } }
        var linkedMembers: [String] { unifiedIds.flatMap { groups[$0]!.members } }
        var contacts: [String] { oldestFirst(Array(people.keys)) }

        func oldestFirst(_ ids: [String]) -> [String] { ids.sorted { people[$0]!.created < people[$1]!.created } }

        func shown(_ unit: String) -> Shown {
            guard let group = groups[unit] else {
                let person = people[unit]!
                return Shown(
                    given: person.given, family: person.family, job: person.job, emails: person.emails,
                    phones: person.phones, image: person.image, linked: [], container: person.container)
            }
            let ordered = group.valueOrder.map { people[$0]! }
            let named = people[group.forName]!
            var emailKeys = Set<String>()
            var phoneKeys = Set<String>()
            return Shown(
                given: named.given, family: named.family, job: ordered.map(\.job).first { !$0.isEmpty } ?? "",
                emails: ordered.flatMap(\.emails).filter {
                    emailKeys.insert(UnifiedFetchModelTests.emailKey($0)).inserted
                },
                phones: ordered.flatMap(\.phones).filter {
                    phoneKeys.insert(UnifiedFetchModelTests.phoneKey($0)).inserted
                },
                image: people[group.forImage]!.image ?? ordered.lazy.compactMap(\.image).first,
                linked: group.members, container: named.container)
        }

        /// Takes a member out of its unified contact (an unlink, or before its deletion).
        mutating func remove(_ member: String) {
            guard let id = group(of: member), var group = groups[id] else { return }
            group.members.removeAll { $0 == member }
            if group.members.count <= 1 {
                groups[id] = nil
                retired.append(id)
                return
            }
            if group.forName == member { group.forName = group.members[0] }
            if group.forImage == member { group.forImage = group.members[0] }
            groups[id] = group
        }

        mutating func delete(_ contact: String) {
            remove(contact)
            people[contact] = nil
            for key in groupMembers.keys { groupMembers[key]!.remove(contact) }
        }
    }

    // MARK: Examples the model found

    /// A search that finds a unified contact through a member that does not stand for it: its pages end, forwards
    /// and backwards, with no empty page after them.
    @Test("A unified search's last page says so", arguments: StoreKind.available)
    func unifiedSearchPagesEnd(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let named = Make.person("Ada", "Lovelace")
        let other = Make.person("Augusta", "King")
        let alone = (0..<4).map { Make.person("Ann \($0)", "") }
        try await store.add([named, other] + alone)
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: [named.identifier, other.identifier])
        try await store.execute(link)
        let unified = try #require(try await store.linkGroups(containing: [named.identifier]).first).identifier
        // "a" finds the four others and, through both members, the unified contact once.
        let expected = [unified] + alone.map(\.identifier)
        for size in 1...3 {
            var forward: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                var request = ContactFetchRequest(
                    predicate: .matchingName("a"), keysToFetch: [], page: .first(size, after: cursor),
                    includeTotalCount: true)
                request.unifyResults = true
                let page = try await store.contacts(request)
                #expect(page.totalCount == expected.count)
                #expect(!page.contacts.isEmpty, "pages of \(size): an empty page")
                forward += page.contacts.map(\.identifier)
                cursor = page.hasNextPage ? page.cursors.last : nil
                pages += 1
            } while cursor != nil && pages < 10
            #expect(forward == expected, "pages of \(size)")
            #expect(pages == (expected.count + size - 1) / size, "pages of \(size)")

            var backward: [String] = []
            cursor = nil
            pages = 0
            repeat {
                var request = ContactFetchRequest(
                    predicate: .matchingName("aug"), keysToFetch: [], page: .last(size, before: cursor))
                request.unifyResults = true
                let page = try await store.contacts(request)
                backward = page.contacts.map(\.identifier) + backward
                cursor = page.hasPreviousPage ? page.cursors.first : nil
                pages += 1
            } while cursor != nil && pages < 10
            #expect(backward == [unified], "pages of \(size)")
            #expect(pages == 1, "pages of \(size)")
        }
    }

    /// The count of every contact, with unification on and off (on PostgreSQL the count's own statement).
    @Test("Every contact's total count", arguments: StoreKind.available)
    func totalCountOfEveryContact(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contacts = (0..<5).map { Make.person("P\($0)", "") }
        try await store.add(contacts)
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: contacts.prefix(3).map(\.identifier))
        try await store.execute(link)
        for unify in [false, true] {
            var request = ContactFetchRequest(keysToFetch: [], page: .first(2), includeTotalCount: true)
            request.unifyResults = unify
            #expect(try await store.contacts(request).totalCount == (unify ? 3 : 5), "unify \(unify)")
        }
    }

    /// An email added through a unified contact goes to the name-preferred member; another member whose email the
    /// unified contact leaves out as a duplicate is not written: its values keep their order, its revision stays.
    @Test("A value added through a unified contact leaves other members as they were", arguments: StoreKind.available)
    func addingThroughUnifiedLeavesOthers(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let named = Make.person("Ada", "Lovelace", emails: ["ada@example.com"])
        let other = Make.person("Ada", "King", emails: ["ADA@EXAMPLE.COM", "countess@example.org"])
        try await store.add([named, other])
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: [named.identifier, other.identifier])
        try await store.execute(link)
        let unifiedId = try #require(try await store.linkGroups(containing: [named.identifier]).first).identifier
        let before = try await store.contact(withIdentifier: other.identifier, keysToFetch: [.emailAddresses])
        let unified = try #require(
            try await store.contacts(withIdentifiers: [unifiedId], keysToFetch: [.emailAddresses], unify: true).first)
        #expect(unified.emailAddresses.map(\.value) == ["ada@example.com", "countess@example.org"])

        var update = Contact(updating: unifiedId)
        update.emailAddresses = unified.emailAddresses + [LabeledValue(label: ContactLabel.work, value: "a@l.example")]
        var request = SaveRequest()
        request.update(update)
        try await store.execute(request)

        let after = try await store.contact(withIdentifier: other.identifier, keysToFetch: [.emailAddresses])
        #expect(after.emailAddresses == before.emailAddresses)
        #expect(after.revision == before.revision)
        let first = try await store.contact(withIdentifier: named.identifier, keysToFetch: [.emailAddresses])
        #expect(first.emailAddresses.map(\.value) == ["ada@example.com", "a@l.example"])
    }

    // MARK: The run

    @Test("Unified pages, searches and values match the model", arguments: StoreKind.available)
    func unifiedFetchesMatchModel(kind: StoreKind) async throws {
        for seed in Self.seeds {
            var run = Run(kind: kind, seed: seed)
            do {
                try await run.run()
            } catch {
                Issue.record("\(run.context): \(String(reflecting: error))")
            }
        }
    }

    struct Run {
        let kind: StoreKind
        let seed: UInt64
        var random: SeededRandom
        var model = Model()
        var containers: [String] = []
        var groupIds: [String] = []
        var created = 0
        var step = 0
        var operation = "setup"

        init(kind: StoreKind, seed: UInt64) {
            self.kind = kind
            self.seed = seed
            self.random = SeededRandom(seed: seed)
        }

        var context: String {
            "seed \(seed) (CARNET_UNIFY_SEED=\(seed)) step \(step) [\(operation)] on \(kind)"
        }

        mutating func newPerson(container: String) -> Contact {
            var contact = Contact()
            contact.givenName = random.pick(UnifiedFetchModelTests.givenNames)!
            contact.familyName = random.pick(UnifiedFetchModelTests.familyNames)!
            contact.jobTitle = random.pick(UnifiedFetchModelTests.jobs)!
            var emailKeys = Set<String>()
            let emails = (0..<random.int(0...2)).compactMap { _ -> String? in
                let email = random.pick(UnifiedFetchModelTests.emails)!
                guard emailKeys.insert(email).inserted else { return nil }
                return random.chance(30) ? email.uppercased() : email
            }
            var phoneKeys = Set<String>()
            let phones = (0..<random.int(0...2)).compactMap { _ -> String? in
                let forms = random.pick(UnifiedFetchModelTests.phones)!
                guard phoneKeys.insert(forms[0]).inserted else { return nil }
                return random.pick(forms)!
            }
            contact.emailAddresses = emails.map { LabeledValue(label: ContactLabel.home, value: $0) }
            contact.phoneNumbers = phones.map { LabeledValue(label: ContactLabel.phoneMobile, value: $0) }
            let image = random.chance(25) ? Data("image \(created)".utf8) : nil
            if let image { contact.imageData = image }
            model.people[contact.identifier] = Person(
                given: contact.givenName, family: contact.familyName, job: contact.jobTitle, emails: emails,
                phones: phones, image: image, container: container, created: created)
            created += 1
            return contact
        }

        mutating func run() async throws {
            let fixture = try await StoreFixture(kind)
            let store = fixture.store
            containers = [try await store.defaultContainer().identifier]
            for index in 0..<random.int(1...2) {
                containers.append(
                    try await store.addContainer(Container(name: "C\(index)", type: .exchange)).identifier)
            }
            var setup = SaveRequest(transactionAuthor: "setup")
            for index in 0..<2 {
                let group = Group(name: "G\(index)")
                setup.add(group, toContainerWithIdentifier: containers[0])
                groupIds.append(group.identifier)
                model.groupMembers[group.identifier] = []
            }
            for _ in 0..<random.int(30...60) {
                let container = random.pick(containers)!
                let contact = newPerson(container: container)
                setup.add(contact, toContainerWithIdentifier: container)
                if container == containers[0] {
                    for group in groupIds where random.chance(30) {
                        setup.addMember(contact.identifier, toGroup: group)
                        model.groupMembers[group]!.insert(contact.identifier)
                    }
                }
            }
            try await store.execute(setup)
            try await check(store)
            for index in 1...random.int(25...35) {
                step = index
                try await apply(store)
                try await check(store)
            }
        }

        // MARK: Steps

        mutating func apply(_ store: any ContactStore) async throws {
            let linked = model.linkedMembers
            let roll = random.int(1...100)
            switch roll {
            case 1...30: try await link(store)
            case 31...40 where !linked.isEmpty:
                let member = random.pick(linked)!
                operation = "unlink \(member)"
                var request = SaveRequest()
                request.unlink(contactWithIdentifier: member)
                try await store.execute(request)
                model.remove(member)
            case 41...55 where !linked.isEmpty:
                let member = random.pick(linked)!
                let forName = roll <= 48
                operation = "prefer \(member) for \(forName ? "name" : "image")"
                var request = SaveRequest()
                if forName {
                    request.setPreferredForName(contactWithIdentifier: member)
                } else {
                    request.setPreferredForImage(contactWithIdentifier: member)
                }
                try await store.execute(request)
                let id = model.group(of: member)!
                if forName { model.groups[id]!.forName = member } else { model.groups[id]!.forImage = member }
            case 56...62 where !linked.isEmpty:
                let member = random.pick(linked)!
                operation = "delete member \(member)"
                var request = SaveRequest()
                request.delete(contactWithIdentifier: member)
                try await store.execute(request)
                model.delete(member)
            case 63...66 where !model.groups.isEmpty:
                let id = random.pick(model.unifiedIds)!
                operation = "delete unified \(id)"
                var request = SaveRequest()
                request.delete(contactWithIdentifier: id)
                try await store.execute(request)
                for member in model.groups[id]!.members { model.delete(member) }
                #expect(model.groups[id] == nil, "\(context)")
            case 67...75:
                let anyone = linked.isEmpty || random.chance(30)
                let member = random.pick(anyone ? model.contacts : linked)!
                operation = "rename member \(member)"
                var update = Contact(updating: member)
                update.givenName = random.pick(UnifiedFetchModelTests.givenNames)!
                update.familyName = random.pick(UnifiedFetchModelTests.familyNames)!
                var request = SaveRequest()
                request.update(update)
                try await store.execute(request)
                model.people[member]!.given = update.givenName
                model.people[member]!.family = update.familyName
            case 76...92 where !model.groups.isEmpty: try await updateUnified(store)
            case 93...95:
                let container = random.pick(containers)!
                let contact = newPerson(container: container)
                operation = "add \(contact.identifier)"
                try await store.add([contact], container: container)
            default: try await refused(store)
            }
        }

        mutating func link(_ store: any ContactStore) async throws {
            var units = model.units
            guard units.count >= 2 else { return }
            var names: [String] = []
            var named: [String] = []
            for _ in 0..<min(units.count, random.int(2...3)) {
                let unit = units.remove(at: random.int(0...units.count - 1))
                named.append(unit)
                if let group = model.groups[unit], random.chance(50) {
                    names.append(random.pick(group.members)!)
                } else {
                    names.append(unit)
                }
            }
            operation = "link \(names)"
            var request = SaveRequest()
            request.link(contactsWithIdentifiers: names)
            try await store.execute(request)
            let members = model.oldestFirst(named.flatMap { model.members($0) })
            if let survivor = named.first(where: { model.groups[$0] != nil }) {
                for unit in named where unit != survivor && model.groups[unit] != nil {
                    model.groups[unit] = nil
                    model.retired.append(unit)
                }
                model.groups[survivor]!.members = members
            } else {
                let found = try await store.linkGroups(containing: [names[0]])
                let id = try #require(found.first?.identifier, "\(context): no unified contact made")
                #expect(!model.retired.contains(id) && model.people[id] == nil, "\(context): reused \(id)")
                model.groups[id] = Unified(members: members, forName: names[0], forImage: names[0])
            }
        }

        mutating func updateUnified(_ store: any ContactStore) async throws {
            let id = random.pick(model.unifiedIds)!
            let group = model.groups[id]!
            var update = Contact(updating: id)
            switch random.int(1...5) {
            case 1:
                update.givenName = random.pick(UnifiedFetchModelTests.givenNames)!
                operation = "given name \"\(update.givenName)\" through \(id)"
                model.people[group.forName]!.given = update.givenName
            case 2:
                update.familyName = random.pick(UnifiedFetchModelTests.familyNames)!
                operation = "family name \"\(update.familyName)\" through \(id)"
                model.people[group.forName]!.family = update.familyName
            case 3:
                update.jobTitle = ["Pilot", "Judge", "Engineer"][random.int(0...2)]
                operation = "job \"\(update.jobTitle)\" through \(id)"
                let holder = group.valueOrder.first { !model.people[$0]!.job.isEmpty } ?? group.forName
                model.people[holder]!.job = update.jobTitle
            case 4:
                update.jobTitle = ""
                operation = "clear job through \(id)"
                for member in group.members { model.people[member]!.job = "" }
            default:
                let unified = try #require(
                    try await store.contacts(withIdentifiers: [id], keysToFetch: [.emailAddresses], unify: true).first)
                let own = Set(model.people[group.forName]!.emails.map(UnifiedFetchModelTests.emailKey))
                let fresh = UnifiedFetchModelTests.emails.filter { !own.contains($0) }
                guard let email = random.pick(fresh) else { return }
                operation = "add email \(email) through \(id)"
                update.emailAddresses = unified.emailAddresses + [LabeledValue(label: ContactLabel.work, value: email)]
                model.people[group.forName]!.emails.append(email)
            }
            var request = SaveRequest()
            request.update(update)
            try await store.execute(request)
        }

        /// Operations the rules refuse: nothing may change.
        mutating func refused(_ store: any ContactStore) async throws {
            var request = SaveRequest()
            let linked = model.linkedMembers
            let alone = model.contacts.filter { model.group(of: $0) == nil }
            if let member = random.pick(linked), random.chance(50) {
                let id = model.group(of: member)!
                let other = model.groups[id]!.members.first { $0 != member }!
                let names = random.chance(50) ? [member, id] : [other, member]
                operation = "link \(names) (the same unified contact twice)"
                request.link(contactsWithIdentifiers: names)
            } else if let id = random.pick(model.unifiedIds), random.chance(50) {
                operation = random.chance(50) ? "unlink unified \(id)" : "prefer unified \(id)"
                if operation.hasPrefix("unlink") {
                    request.unlink(contactWithIdentifier: id)
                } else {
                    request.setPreferredForName(contactWithIdentifier: id)
                }
            } else if let contact = random.pick(alone) {
                operation = "unlink \(contact) (not linked)"
                request.unlink(contactWithIdentifier: contact)
            } else {
                return
            }
            do {
                try await store.execute(request)
                Issue.record("\(context): expected LINK_INVALID")
            } catch let error as StoreError {
                #expect(error.code == .linkInvalid, "\(context): \(error)")
            }
        }

        // MARK: Checks

        func check(_ store: any ContactStore) async throws {
            try await checkGroups(store)
            var listings: [ContactSortOrder: [String]] = [:]
            for order in UnifiedFetchModelTests.orders {
                listings[order] = try await checkIndividuals(store, order: order)
            }
            // The checks draw from their own generator, so that the schedule is the same whatever they do.
            var random = SeededRandom(seed: seed &* 1_000 &+ UInt64(step))
            for order in UnifiedFetchModelTests.orders {
                let expected = listings[order]!.compactMap { contact -> String? in
                    guard let unit = model.unit(named: contact) else { return nil }
                    return model.representative(unit) == contact ? unit : nil
                }
                try await checkPages(store, .all, order: order, expected: expected, size: random.int(1...7), "all")
            }
            // Searches: a unified contact comes once, in its name-preferred member's place, when it meets every
            // condition: a value or membership through any member (each condition through its own), identifiers
            // and container as its own.
            for _ in 0..<3 {
                let order = random.pick(UnifiedFetchModelTests.orders)!
                var (predicate, label) = predicate(&random)
                var matched = try await unitsMeeting(predicate, store)
                if random.chance(40) {
                    let (other, otherLabel) = self.predicate(&random)
                    let combined = predicate.and(other)
                    // Two conditions of one kind: the second would replace the first.
                    let set: [Any?] = [
                        combined.matchingName, combined.matchingEmailAddress, combined.matchingPhoneNumber,
                        combined.identifiers, combined.groupIdentifier, combined.containerIdentifier,
                    ]
                    if set.compactMap({ $0 }).count == 2 {
                        matched.formIntersection(try await unitsMeeting(other, store))
                        (predicate, label) = (combined, label + " and " + otherLabel)
                    }
                }
                let expected = listings[order]!.compactMap { contact -> String? in
                    guard let unit = model.unit(named: contact) else { return nil }
                    return model.representative(unit) == contact && matched.contains(unit) ? unit : nil
                }
                try await checkPages(store, predicate, order: order, expected: expected, size: random.int(1...7), label)
            }
            try await checkByIdentifiers(store, &random)
        }

        /// The model's units that meet a one-condition predicate.
        func unitsMeeting(_ predicate: ContactPredicate, _ store: any ContactStore) async throws -> Set<String> {
            if let identifiers = predicate.identifiers {
                return Set(identifiers.compactMap { model.unit(named: $0) })
            }
            if let container = predicate.containerIdentifier {
                return Set(model.units.filter { model.people[model.representative($0)]!.container == container })
            }
            let individual = try await store.contacts(
                ContactFetchRequest(predicate: predicate, keysToFetch: [], page: .first(1000)))
            return Set(individual.contacts.compactMap { model.unit(named: $0.identifier) })
        }

        func predicate(_ random: inout SeededRandom) -> (ContactPredicate, String) {
            switch random.int(1...6) {
            case 1:
                // Two words, sometimes: every word must match one contact, not one word each of two members.
                let words = (0..<(random.chance(30) ? 2 : 1)).map { _ in
                    let word = random.pick(UnifiedFetchModelTests.givenNames + UnifiedFetchModelTests.familyNames)!
                    let typed = String(word.prefix(random.int(1...max(1, word.count))))
                    return typed.isEmpty ? "a" : (random.chance(50) ? typed.uppercased() : typed.lowercased())
                }
                let query = words.joined(separator: " ")
                return (.matchingName(query), "name \"\(query)\"")
            case 2:
                let email = random.pick(UnifiedFetchModelTests.emails)!
                let query = random.chance(50) ? email.uppercased() : email
                return (.matchingEmailAddress(query), "email \(query)")
            case 3:
                let forms = random.pick(UnifiedFetchModelTests.phones)!
                let phone = random.pick(forms)!
                return (.matchingPhoneNumber(phone), "phone \(phone)")
            case 4:
                let group = random.pick(groupIds)!
                return (.inGroup(group), "group \(group)")
            case 5:
                let container = random.pick(containers)!
                return (.inContainer(container), "container \(container)")
            default:
                let pool = model.contacts + model.unifiedIds + model.retired
                let identifiers = (0..<random.int(1...6)).compactMap { _ in random.pick(pool) }
                return (.withIdentifiers(identifiers), "identifiers \(identifiers)")
            }
        }

        /// The link groups the store reports are the model's.
        func checkGroups(_ store: any ContactStore) async throws {
            let asked = Array(model.people.keys) + Array(model.groups.keys) + Array(model.retired)
            let groups = try await store.linkGroups(containing: asked.sorted())
            var found: [String: Unified] = [:]
            for group in groups {
                #expect(found[group.identifier] == nil, "\(context): \(group.identifier) twice")
                found[group.identifier] = Unified(
                    members: group.members, forName: group.preferredForName, forImage: group.preferredForImage)
            }
            #expect(found == model.groups, "\(context): link groups")
        }

        /// With unification off: every individual contact once, unchanged by links, in the store's order. Returns
        /// the identifiers in that order.
        func checkIndividuals(_ store: any ContactStore, order: ContactSortOrder) async throws -> [String] {
            let page = try await store.contacts(
                ContactFetchRequest(
                    keysToFetch: UnifiedFetchModelTests.keys, sortOrder: order, page: .first(1000),
                    includeTotalCount: true))
            let ids = page.contacts.map(\.identifier)
            #expect(Set(ids) == Set(model.people.keys) && ids.count == model.people.count, "\(context): individuals")
            #expect(page.totalCount == model.people.count, "\(context): individual count")
            if order == .none {
                let byAge = model.oldestFirst(Array(model.people.keys))
                #expect(ids == byAge, "\(context): individuals in creation order")
                for contact in page.contacts where model.people[contact.identifier] != nil {
                    let person = model.people[contact.identifier]!
                    let expected = Shown(
                        given: person.given, family: person.family, job: person.job, emails: person.emails,
                        phones: person.phones, image: person.image, linked: [], container: person.container)
                    #expect(shown(contact) == expected, "\(context): individual \(contact.identifier)")
                }
            }
            return ids
        }

        func shown(_ contact: Contact) -> Shown {
            Shown(
                given: contact.givenName, family: contact.familyName, job: contact.jobTitle,
                emails: contact.emailAddresses.map(\.value), phones: contact.phoneNumbers.map(\.value),
                image: contact.availableKeys.contains(.imageData) ? contact.imageData : nil,
                linked: contact.linkedContactIdentifiers,
                container: contact.containerIdentifier ?? "")
        }

        /// Pages with unification on, forwards and backwards, give `expected` once each, with the model's values.
        func checkPages(
            _ store: any ContactStore, _ predicate: ContactPredicate, order: ContactSortOrder, expected: [String],
            size: Int, _ label: String
        ) async throws {
            // Without an image key, a page's own contacts serve as members and their values are read with the hidden
            // members' (SQLite); with one, they are read again with it.
            let withImage = size % 2 == 1
            let keys = withImage ? UnifiedFetchModelTests.keys : UnifiedFetchModelTests.keys.subtracting([.imageData])
            let context = "\(self.context), \(label), order \(order), pages of \(size), image \(withImage)"
            var forward: [String] = []
            var cursor: String?
            var total: Int?
            var pages = 0
            while true {
                var request = ContactFetchRequest(
                    predicate: predicate, keysToFetch: keys, sortOrder: order,
                    page: .first(size, after: cursor), includeTotalCount: cursor == nil)
                request.unifyResults = true
                let page = try await store.contacts(request)
                if cursor == nil { total = page.totalCount }
                #expect(page.hasPreviousPage == (cursor != nil), "\(context): forwards hasPreviousPage")
                #expect(page.contacts.count <= size, "\(context): a page past its size")
                for contact in page.contacts {
                    forward.append(contact.identifier)
                    if model.unit(named: contact.identifier) == contact.identifier {
                        var expected = model.shown(contact.identifier)
                        if !withImage { expected.image = nil }
                        #expect(shown(contact) == expected, "\(context): values of \(contact.identifier)")
                        #expect(contact.isUnified == (model.groups[contact.identifier] != nil), "\(context)")
                    }
                }
                pages += 1
                guard page.hasNextPage else { break }
                guard let last = page.cursors.last, pages <= expected.count + 2 else {
                    Issue.record("\(context): hasNextPage on an empty page, or past the end (\(pages) pages)")
                    break
                }
                cursor = last
            }
            #expect(forward == expected, "\(context): forwards")
            #expect(total == expected.count, "\(context): total count")

            var backward: [String] = []
            cursor = nil
            pages = 0
            while true {
                var request = ContactFetchRequest(
                    predicate: predicate, keysToFetch: [.givenName], sortOrder: order,
                    page: .last(size, before: cursor))
                request.unifyResults = true
                let page = try await store.contacts(request)
                #expect(page.hasNextPage == (cursor != nil), "\(context): backwards hasNextPage")
                backward = page.contacts.map(\.identifier) + backward
                pages += 1
                guard page.hasPreviousPage else { break }
                guard let first = page.cursors.first, pages <= expected.count + 2 else {
                    Issue.record("\(context): hasPreviousPage on an empty page, or past the start (\(pages) pages)")
                    break
                }
                cursor = first
            }
            #expect(backward == expected, "\(context): backwards")
        }

        /// Contacts by identifier with unification on: in the order asked, each unified contact once, deleted and
        /// retired identifiers left out, each with the keys asked for and no other.
        func checkByIdentifiers(_ store: any ContactStore, _ random: inout SeededRandom) async throws {
            let pool = model.contacts + model.unifiedIds + model.retired
            var asked = (0..<random.int(1...10)).compactMap { _ in random.pick(pool) }
            asked += model.unifiedIds
            var seen = Set<String>()
            let expected = asked.compactMap { model.unit(named: $0) }.filter { seen.insert($0).inserted }
            // Without an image key, PostgreSQL reads groups, members and the other contacts in one statement.
            let withImage = random.int(0...1) == 1
            let keys = withImage ? UnifiedFetchModelTests.keys : UnifiedFetchModelTests.keys.subtracting([.imageData])
            let found = try await store.contacts(withIdentifiers: asked, keysToFetch: keys, unify: true)
            let context = "\(self.context), image \(withImage)"
            #expect(found.map(\.identifier) == expected, "\(context): by identifiers \(asked)")
            for contact in found where model.unit(named: contact.identifier) == contact.identifier {
                var shownByModel = model.shown(contact.identifier)
                if !withImage { shownByModel.image = nil }
                #expect(shown(contact) == shownByModel, "\(context): values of \(contact.identifier)")
                #expect(contact.availableKeys == keys, "\(context): keys of \(contact.identifier)")
            }
            let plain = try await store.contacts(withIdentifiers: asked, keysToFetch: [.givenName], unify: false)
            #expect(plain.allSatisfy { !$0.isUnified && model.people[$0.identifier] != nil }, "\(context)")
        }
    }
}
