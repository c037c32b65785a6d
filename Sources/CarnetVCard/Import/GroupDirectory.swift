import CarnetStore

/// The groups of the import's container by name, creating the missing ones in the save that needs them.
struct GroupDirectory {
    private var byName: [String: String]
    private var pending: [String: String] = [:]
    /// The container as the importer was given it (`nil`: the default container), for the save operations.
    let container: String?
    /// The container's identifier, resolved.
    let containerIdentifier: String
    /// Every group of the container, by identifier.
    private(set) var identifiers: Set<String>

    init(store: CarnetStore, container: String?) async throws {
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
        self.identifiers = identifiers
        self.container = container
        self.containerIdentifier = resolved
    }

    /// The group named `name`, added to the request when it does not exist yet; `created` tells which.
    mutating func ensure(_ name: String, in operations: inout [SaveOperation]) -> (identifier: String, created: Bool) {
        if let existing = identifier(for: name) { return (existing, false) }
        let group = Group(name: name)
        operations.append(.addGroup(group, containerIdentifier: container))
        pending[name] = group.identifier
        identifiers.insert(group.identifier)
        return (group.identifier, true)
    }

    /// Records a group a group card created or renamed, so CATEGORIES of that name find it.
    mutating func note(_ name: String, groupIdentifier: String) {
        if identifier(for: name) == nil { pending[name] = groupIdentifier }
        identifiers.insert(groupIdentifier)
    }

    func identifier(for name: String) -> String? { byName[name] ?? pending[name] }
}
