import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

/// A sync client that follows the documented contract (Sources/CarnetStore/README.md, "The client contract"):
/// it pulls pages while `hasMore`, applies every event, may exclude its own author and apply its own saves.
struct SyncReplica {
    var author: String?
    var excludeOwn: Bool
    var groupChanges: Bool
    var token: String?
    var contacts: [String: String] = [:]
    var groups: [String: String] = [:]
    var members: Set<[String]> = []

    init(author: String? = nil, excludeOwn: Bool = false, groupChanges: Bool = true) {
        self.author = author
        self.excludeOwn = excludeOwn
        self.groupChanges = groupChanges
    }

    mutating func apply(_ event: ChangeHistoryEvent) {
        switch event.kind {
        case .dropEverything:
            contacts = [:]
            groups = [:]
            members = []
        case .addContact, .updateContact:
            if let id = event.contactIdentifier, let contact = event.contact { contacts[id] = contact.givenName }
        case .deleteContact:
            guard let id = event.contactIdentifier else { return }
            contacts[id] = nil
            members = members.filter { $0[1] != id }
        case .addGroup, .updateGroup:
            if let id = event.groupIdentifier, let group = event.group { groups[id] = group.name }
        case .deleteGroup:
            guard let id = event.groupIdentifier else { return }
            groups[id] = nil
            members = members.filter { $0[0] != id }
        case .addMemberToGroup:
            if let group = event.groupIdentifier, let contact = event.contactIdentifier {
                members.insert([group, contact])
            }
        case .removeMemberFromGroup:
            if let group = event.groupIdentifier, let contact = event.contactIdentifier {
                members.remove([group, contact])
            }
        }
    }

    /// One page; returns whether more are waiting.
    mutating func pull(_ store: any ContactStore, limit: Int) async throws -> Bool {
        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(
                startingToken: token, includeGroupChanges: groupChanges,
                excludedAuthors: excludeOwn ? Set([author].compactMap { $0 }) : [], contactKeys: [.givenName],
                limit: limit))
        for event in page.events { apply(event) }
        token = page.token
        return page.hasMore
    }

    mutating func sync(_ store: any ContactStore, limit: Int = 1000) async throws {
        while try await pull(store, limit: limit) {}
    }

    /// Saves as this client and, when it excludes its own author, applies the request's effect itself; a merge as
    /// the schema tells such a client to: the survivor read back with its groups, the absorbed contacts gone.
    mutating func save(_ request: SaveRequest, to store: any ContactStore) async throws {
        try await store.execute(request)
        guard excludeOwn else { return }
        for case .mergeContacts(let survivor, let absorbed) in request.operations {
            let contact = try await store.contact(withIdentifier: survivor, keysToFetch: [.givenName])
            contacts[survivor] = contact.givenName
            members = members.filter { !absorbed.contains($0[1]) && $0[1] != survivor }
            if groupChanges {
                for group in try await store.groups(ofContacts: [survivor])[survivor] ?? [] {
                    members.insert([group.identifier, survivor])
                }
            }
            for id in absorbed { contacts[id] = nil }
        }
        for operation in request.operations {
            switch operation {
            case .addContact(let contact, _): contacts[contact.identifier] = contact.givenName
            case .updateContact(let contact, _):
                if contact.modifiedKeys.contains(.givenName) { contacts[contact.identifier] = contact.givenName }
            case .deleteContact(let id):
                contacts[id] = nil
                members = members.filter { $0[1] != id }
            case .addGroup(let group, _), .updateGroup(let group, _):
                if groupChanges { groups[group.identifier] = group.name }
            case .deleteGroup(let id):
                groups[id] = nil
                members = members.filter { $0[0] != id }
            case .addMember(let contact, let group): if groupChanges { members.insert([group, contact]) }
            case .removeMember(let contact, let group): members.remove([group, contact])
            // Link operations change no given name or membership the replica keeps.
            case .mergeContacts, .linkContacts, .unlinkContact, .setPreferredLinkedContact: continue
            }
        }
    }
}

/// What the store holds now, in the replica's terms.
struct StoreState: Equatable {
    var contacts: [String: String] = [:]
    var groups: [String: String] = [:]
    var members: Set<[String]> = []

    static func read(_ store: any ContactStore, groupChanges: Bool = true) async throws -> StoreState {
        var state = StoreState()
        var after: String?
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(keysToFetch: [.givenName], page: .first(1000, after: after)))
            for contact in page.contacts { state.contacts[contact.identifier] = contact.givenName }
            after = page.hasNextPage ? page.cursors.last : nil
        } while after != nil
        guard groupChanges else { return state }
        let groups = try await store.groups(inContainer: nil)
        for group in groups { state.groups[group.identifier] = group.name }
        let members = try await store.members(ofGroups: groups.map(\.identifier), keysToFetch: [])
        for (group, contacts) in members {
            for contact in contacts { state.members.insert([group, contact.identifier]) }
        }
        return state
    }
}

extension SyncReplica {
    var state: StoreState { StoreState(contacts: contacts, groups: groups, members: members) }
}
