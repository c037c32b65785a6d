import CarnetStore

/// The groups of the import's container by name, creating the missing ones in the save that needs them.
struct GroupDirectory {
    private var byName: [String: String]
    /// Groups added by saves not yet committed: forgotten when their save fails.
    private var pending: [String: String] = [:]
    private var pendingIdentifiers: Set<String> = []
    /// The container as the importer was given it (`nil`: the default container), for the save operations.
    let container: String?
    /// The container's identifier, resolved.
    let containerIdentifier: String
    /// Every committed group of the container, by identifier.
    private var committedIdentifiers: Set<String>
    /// The identifiers group cards give their names (their UIDs), for a group CATEGORIES creates before the
    /// group card is linked.
    private(set) var preferred: [String: String] = [:]

    init(store: any ContactStore, container: String?) async throws {
        var target = container
        if target == nil { target = try await store.defaultContainer().identifier }
        let resolved = target ?? ""
        var byName: [String: String] = [:]
        var identifiers: Set<String> = []
        for group in try await store.groups(inContainer: resolved) {
            if byName[group.name] == nil { byName[group.name] = group.identifier }
            identifiers.insert(group.identifier)
        }
        self.byName = byName
        self.committedIdentifiers = identifiers
        self.container = container
        self.containerIdentifier = resolved
    }

    /// The group named `name`, added to `operations` when it does not exist yet; `created` tells which.
    mutating func ensure(_ name: String, in operations: inout [SaveOperation]) -> (identifier: String, created: Bool) {
        if let existing = identifier(for: name) { return (existing, false) }
        let group = preferred[name].map { Group(identifier: $0, name: name) } ?? Group(name: name)
        preferred[name] = nil
        operations.append(.addGroup(group, containerIdentifier: container))
        note(name, groupIdentifier: group.identifier)
        return (group.identifier, true)
    }

    /// Records a group a group card creates, so CATEGORIES of that name find it.
    mutating func note(_ name: String, groupIdentifier: String) {
        if identifier(for: name) == nil { pending[name] = groupIdentifier }
        pendingIdentifiers.insert(groupIdentifier)
    }

    func identifier(for name: String) -> String? { byName[name] ?? pending[name] }

    /// A group card's name and UID, read before the cards whose CATEGORIES name it.
    mutating func prefer(_ groupIdentifier: String, for name: String) {
        if preferred[name] == nil, identifier(for: name) == nil { preferred[name] = groupIdentifier }
    }

    /// Forgets the name a group card gave its UID, when a later group card with that UID replaces it. One lookup:
    /// a file of group cards that repeat UIDs must not scan every preference at each repeat.
    mutating func forgetPreferred(_ groupIdentifier: String, for name: String) {
        if preferred[name] == groupIdentifier { preferred[name] = nil }
    }

    /// Forgets preferred identifiers an add could not take.
    mutating func dropPreferred(_ identifiers: Set<String>) {
        preferred = preferred.filter { !identifiers.contains($0.value) }
    }

    func contains(identifier: String) -> Bool {
        committedIdentifiers.contains(identifier) || pendingIdentifiers.contains(identifier)
    }

    mutating func commit() {
        byName.merge(pending) { a, _ in a }
        committedIdentifiers.formUnion(pendingIdentifiers)
        pending = [:]
        pendingIdentifiers = []
    }

    mutating func rollBack() {
        pending = [:]
        pendingIdentifiers = []
    }
}
