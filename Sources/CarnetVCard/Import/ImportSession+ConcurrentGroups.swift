import CarnetStore

/// Imports that run at once and create a group of the same name by CATEGORIES: each read the container's groups
/// before the other made its group, so each made one, and the book had two groups of the name, each with half the
/// members, a state no order of the two imports gives (an outside tester's find). A save cannot be made to depend
/// on a name being free, so each import checks once its groups are in: a group of the name that it did not know of
/// was made meanwhile, and its own goes into that one (members added, its group deleted). Should both imports do
/// so at once, the second merge fails (the other group is gone) and its group, with every member, stays.
extension ImportSession {
    /// Merges the groups the last commit created by name into groups of the same names made meanwhile. Best
    /// effort, after the commit: a failure leaves the groups as they are, and the import goes on.
    mutating func mergeConcurrentGroups() async {
        let created = createdByName
        createdByName = []
        guard !created.isEmpty else { return }
        do {
            try await merge(created)
        } catch {
            // The other group went meanwhile (its import merged it into ours), or the store refused: as it is.
        }
    }

    private mutating func merge(_ created: [String]) async throws {
        var unknown: [ExactText: String] = [:]
        for group in try await store.groups(inContainer: groups.containerIdentifier)
        where !groups.contains(identifier: group.identifier) {
            let name = ExactText(group.name)
            if unknown[name] == nil { unknown[name] = group.identifier }
        }
        var targets: [(ours: String, theirs: String)] = []
        for identifier in created {
            if let name = groups.name(of: identifier), let other = unknown[name] {
                targets.append((identifier, other))
            }
        }
        guard !targets.isEmpty else { return }
        let members = try await store.members(ofGroups: targets.map(\.ours), keysToFetch: [])
        var operations: [SaveOperation] = []
        for (ours, theirs) in targets {
            for contact in members[ours] ?? [] {
                operations.append(.addMember(contactIdentifier: contact.identifier, groupIdentifier: theirs))
            }
            operations.append(.deleteGroup(identifier: ours))
        }
        summary.historyToken = try await store.execute(atomically: requests(operations)).historyToken
        for (ours, theirs) in targets {
            groups.replace(ours, with: theirs)
            for (contact, joined) in joinedGroups where joined.contains(ours) {
                joinedGroups[contact]?.remove(ours)
                joinedGroups[contact]?.insert(theirs)
            }
        }
        summary.groupsCreated -= targets.count
    }
}
