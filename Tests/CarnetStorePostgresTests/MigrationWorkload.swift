import CarnetStore
import CarnetTestSupport
import Foundation

/// A random history for a book, from a seed: adds with every kind of value, updates (also from stale base
/// revisions), deletes, groups, memberships and a compaction, with history tokens kept along the way, so a copy
/// of the book has identifiers, revisions, retired identifiers, value versions and a log to keep.
struct MigrationWorkload {
    var random: SeededRandom
    var contacts: [String] = []
    var deleted: [String] = []
    var groups: [String] = []
    /// Tokens a client could hold: incremental ones, and one in the middle of a full sync's snapshot.
    var tokens: [String] = []
    /// Contacts as a client fetched them before later saves changed them: saves from these stale bases after the
    /// copy must merge the same way on both backends (they need the value versions and retired identifiers).
    var staleCopies: [Contact] = []

    static let names = ["Zoë", "Ærøskøbing", "Łukasz", "Anna", "anna-maria", "José", "O'Neil", "李", "Nguyễn", "Ørsted"]

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func run(_ store: any ContactStore, steps: Int, compact: Bool) async throws {
        let local = try await store.defaultContainer().identifier
        let other = try await store.addContainer(Container(name: "CardDAV", type: .cardDAV)).identifier
        try await store.setUserDefaultSortOrder(.givenName)
        for step in 0..<steps {
            if step % 25 == 0 { tokens.append(try await store.currentHistoryToken()) }
            if step == steps / 2 {
                let page = try await store.changeHistory(
                    ChangeHistoryFetchRequest(startingToken: nil, includeGroupChanges: true, limit: 3))
                tokens.append(page.token)
                if compact { try await store.compactHistory(olderThan: Date()) }
            }
            var request = SaveRequest(transactionAuthor: random.pick(["app-a", "app-b", "importer"]))
            switch contacts.isEmpty ? 1 : random.int(1...100) {
            case 1...40:
                let contact = newContact()
                request.add(contact, toContainerWithIdentifier: random.chance(70) ? local : other)
            case 41...62:
                guard let id = random.pick(contacts) else { continue }
                var contact = try await store.contact(withIdentifier: id, keysToFetch: .all)
                if staleCopies.count < 8, random.chance(40) { staleCopies.append(contact) }
                edit(&contact)
                request.update(contact)
            case 63...70:
                guard let id = random.pick(contacts) else { continue }
                request.delete(contactWithIdentifier: id)
            case 71...80:
                request.add(Group(name: random.pick(Self.names)! + " \(step)"), toContainerWithIdentifier: local)
            case 81...84:
                guard let id = random.pick(groups) else { continue }
                var group = try await store.group(withIdentifier: id)
                group.name += " renamed"
                request.update(group)
            case 85...87:
                guard let id = random.pick(groups) else { continue }
                request.delete(groupWithIdentifier: id)
            default:
                guard let group = random.pick(groups), let contact = random.pick(contacts) else { continue }
                if random.chance(70) {
                    request.addMember(contact, toGroup: group)
                } else {
                    request.removeMember(contact, fromGroup: group)
                }
            }
            // Some operations are refused (a member of another container's group, one already removed): the
            // store's answer is what it is on both backends, and the copy must keep whatever was written.
            guard (try? await store.execute(request)) != nil else { continue }
            try await refresh(store)
        }
        tokens.append(try await store.currentHistoryToken())
    }

    private mutating func refresh(_ store: any ContactStore) async throws {
        var ids: [String] = []
        var page = try await store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(1000)))
        ids += page.contacts.map(\.identifier)
        while page.hasNextPage, let cursor = page.cursors.last {
            page = try await store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(1000, after: cursor)))
            ids += page.contacts.map(\.identifier)
        }
        deleted += contacts.filter { !ids.contains($0) }
        contacts = ids
        groups = try await store.groups().map(\.identifier)
    }

    private mutating func newContact() -> Contact {
        var contact = Contact(contactType: random.chance(10) ? .organization : .person)
        contact.givenName = random.pick(Self.names)!
        contact.familyName = random.chance(80) ? random.pick(Self.names)! : ""
        contact.organizationName = random.chance(30) ? "Ørsted A/S" : ""
        contact.note = random.chance(20) ? String(repeating: "note ", count: random.int(1...200)) : ""
        contact.phoneNumbers = (0..<random.int(0...3)).map { index in
            LabeledValue(label: label([nil, "_$!<Mobile>!$_", "work", ""]), value: "+33 6 12 34 56 \(10 + index)")
        }
        contact.emailAddresses = (0..<random.int(0...2)).map { index in
            LabeledValue(
                label: label([nil, "_$!<Home>!$_"]), value: "Person\(random.int(1...50)).\(index)@Example.org")
        }
        if random.chance(20) {
            contact.postalAddresses = [LabeledValue(label: "home", value: PostalAddress(street: "1 Rue", city: "Lyon"))]
        }
        if random.chance(30) { contact.birthday = ContactDate(year: random.int(1950...2000), month: 2, day: 29) }
        if random.chance(10) {
            contact.imageData = Data((0..<random.int(1...4000)).map { _ in UInt8(random.int(0...255)) })
            contact.thumbnailImageData = Data([1, 2, 3])
        }
        if random.chance(10) { contact.vCardProperties = [LabeledValue(value: "X-CUSTOM;TYPE=a:value")] }
        return contact
    }

    /// One of the labels, `nil` (no label) among them.
    private mutating func label(_ options: [String?]) -> String? { random.pick(options) ?? nil }

    private mutating func edit(_ contact: inout Contact) {
        contact.givenName = random.pick(Self.names)!
        if !contact.phoneNumbers.isEmpty, random.chance(50) {
            contact.phoneNumbers[0] = LabeledValue(
                identifier: contact.phoneNumbers[0].identifier, label: "changed",
                value: "+1 555 010 \(random.int(1000...9999))")
        }
        if !contact.emailAddresses.isEmpty, random.chance(40) { contact.emailAddresses.removeLast() }
        if random.chance(40) {
            contact.urlAddresses.append(LabeledValue(label: "homepage", value: "https://example.org"))
        }
        if random.chance(20) { contact.birthday = nil }
    }
}
