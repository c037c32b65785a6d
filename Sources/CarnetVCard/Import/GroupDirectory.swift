import CarnetStore

/// The groups of the import's container by name, with the ones this import creates or renames.
///
/// Names are compared byte for byte (``ExactText``), as the store holds them: it keeps groups of one name side by
/// side, and "José" and "Jose\u{301}" are two names to it.
struct GroupDirectory {
    /// The container's groups by name, in the store's order and then as created: several may share a name.
    private var byName: [ExactText: [String]] = [:]
    /// The name of every group of the container, by identifier.
    private var names: [String: ExactText] = [:]
    /// Groups added by saves not yet committed, in the order added: forgotten when their save fails.
    private var pending: [String] = []
    private var pendingByName: [ExactText: [String]] = [:]
    private var pendingNames: [String: ExactText] = [:]
    /// The names of the groups about to be added that no group of the container bore when the groups were read:
    /// the save that adds them must find none of them there (another import may have made one meanwhile).
    private(set) var newNames: [GroupNameAbsence] = []
    /// The container as the importer was given it (`nil`: the default container), for the save operations.
    let container: String?
    /// The container's identifier, resolved.
    let containerIdentifier: String

    init(store: any ContactStore, container: String?) async throws {
        var target = container
        if target == nil { target = try await store.defaultContainer().identifier }
        let resolved = target ?? ""
        self.container = container
        self.containerIdentifier = resolved
        try await reread(store)
    }

    /// Reads the container's groups again, as they are now (other writers' groups in, deleted ones out); the groups
    /// about to be added stay.
    mutating func reread(_ store: any ContactStore) async throws {
        byName = [:]
        names = [:]
        for group in try await store.groups(inContainer: containerIdentifier) {
            let name = ExactText(group.name)
            byName[name, default: []].append(group.identifier)
            names[group.identifier] = name
        }
    }

    /// The container's groups named `name`, the committed ones first.
    func identifiers(named name: ExactText) -> [String] {
        (byName[name] ?? []) + (pendingByName[name] ?? [])
    }

    /// Whether the container has this group, committed or about to be.
    func contains(identifier: String) -> Bool { name(of: identifier) != nil }

    /// A group's name as this import leaves it.
    func name(of identifier: String) -> ExactText? { names[identifier] ?? pendingNames[identifier] }

    /// Adds the group to `operations` and notes it.
    mutating func add(_ group: Group, to operations: inout [SaveOperation]) {
        operations.append(.addGroup(group, containerIdentifier: container))
        note(group)
    }

    /// Records a group an operation of this import adds.
    mutating func note(_ group: Group) {
        let name = ExactText(group.name)
        if byName[name]?.isEmpty ?? true, pendingByName[name] == nil {
            newNames.append(GroupNameAbsence(containerIdentifier: container, name: group.name))
        }
        pending.append(group.identifier)
        pendingByName[name, default: []].append(group.identifier)
        pendingNames[group.identifier] = name
    }

    /// Records a group card's rename of a group, saved with the links.
    mutating func rename(_ identifier: String, to name: ExactText) {
        if let old = names[identifier] {
            byName[old]?.removeAll { $0 == identifier }
            byName[name, default: []].append(identifier)
            names[identifier] = name
        } else if let old = pendingNames[identifier] {
            pendingByName[old]?.removeAll { $0 == identifier }
            pendingByName[name, default: []].append(identifier)
            pendingNames[identifier] = name
        }
    }

    mutating func commit() {
        for identifier in pending {
            guard let name = pendingNames[identifier] else { continue }
            byName[name, default: []].append(identifier)
            names[identifier] = name
        }
        rollBack()
    }

    /// Forgets the groups of a save that failed (and, after a commit, the pending lists).
    mutating func rollBack() {
        pending = []
        pendingByName = [:]
        pendingNames = [:]
        newNames = []
    }
}
