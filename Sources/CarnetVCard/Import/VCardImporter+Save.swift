import CarnetStore
import Foundation

extension VCardImporter {
    /// Saves one batch of prepared cards (``prepared(_:)``) in one transaction: adds, minimal updates, new
    /// groups, memberships. When the store refuses the batch, the cards are saved one by one so only the card at
    /// fault is skipped.
    func save(_ cards: [VCardCard], _ summary: inout Summary, _ groups: inout GroupDirectory) async throws {
        let existing = try await matches(cards)
        var request = SaveRequest(transactionAuthor: transactionAuthor)
        var counts = (added: 0, updated: 0, unchanged: 0)
        var memberships: [(String, String)] = []
        for card in cards {
            let target = existing[card.contact.identifier] ?? card.uid.flatMap { existing["UID:" + $0] }
            if let current = target {
                if let update = ContactDiff.update(current, to: card.contact) {
                    request.update(update)
                    counts.updated += 1
                } else {
                    counts.unchanged += 1
                }
                memberships += card.categories.map { (current.identifier, $0) }
            } else {
                request.add(card.contact, toContainerWithIdentifier: containerIdentifier)
                counts.added += 1
                memberships += card.categories.map { (card.contact.identifier, $0) }
            }
        }
        let names = Array(Set(memberships.map(\.1)))
        let created = groups.ensure(names, in: &request)
        for (contact, name) in memberships {
            if let group = groups.identifier(for: name) { request.addMember(contact, toGroup: group) }
        }
        do {
            let result = try await store.execute(request)
            groups.commit()
            summary.added += counts.added
            summary.updated += counts.updated
            summary.unchanged += counts.unchanged
            summary.groupsCreated += created
            summary.historyToken = result.historyToken
        } catch let error as StoreError where cards.count > 1 {
            groups.rollBack()
            _ = error
            for card in cards { try await save([card], &summary, &groups) }
        } catch let error as StoreError {
            groups.rollBack()
            summary.skipped.append(VCardIssue(line: cards[0].line, message: error.description))
        }
    }

    /// The stored contacts the cards name: by identifier, or by a kept UID (keyed `UID:<uid>`).
    private func matches(_ cards: [VCardCard]) async throws -> [String: Contact] {
        var found: [String: Contact] = [:]
        for contact in try await store.contacts(withIdentifiers: cards.map(\.contact.identifier), keysToFetch: .all) {
            found[contact.identifier] = contact
        }
        let keptUIDs = cards.compactMap { card in card.uid.flatMap { $0 != card.contact.identifier ? $0 : nil } }
        let byUID = try await store.contactIdentifiers(keepingVCardUIDs: keptUIDs)
        let contacts = try await store.contacts(withIdentifiers: Array(Set(byUID.values)), keysToFetch: .all)
        let byID = Dictionary(contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        for (uid, id) in byUID { found["UID:" + uid] = byID[id] }
        return found
    }
}

/// The groups of the import's container by name, creating the missing ones in the save that needs them.
struct GroupDirectory {
    private var byName: [String: String]
    private var pending: [String: String] = [:]
    let container: String?

    init(store: CarnetStore, container: String?) async throws {
        var target = container
        if target == nil { target = try await store.defaultContainer().identifier }
        var byName: [String: String] = [:]
        for group in try await store.groups(inContainer: target) where byName[group.name] == nil {
            byName[group.name] = group.identifier
        }
        self.byName = byName
        self.container = container
    }

    /// Adds the groups that do not exist yet to the request; returns how many.
    mutating func ensure(_ names: [String], in request: inout SaveRequest) -> Int {
        var created = 0
        for name in names.sorted() where byName[name] == nil && pending[name] == nil {
            let group = Group(name: name)
            request.add(group, toContainerWithIdentifier: container)
            pending[name] = group.identifier
            created += 1
        }
        return created
    }

    func identifier(for name: String) -> String? { byName[name] ?? pending[name] }

    mutating func commit() {
        byName.merge(pending) { a, _ in a }
        pending = [:]
    }

    mutating func rollBack() { pending = [:] }
}
