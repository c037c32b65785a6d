import CarnetStore

/// Imports that run at once and create a group of the same name by CATEGORIES: each read the container's groups
/// before the other made its group, so each made one, and the book had several groups of the name, each with some
/// of the members, a state no order of the imports gives (an outside tester's find). A save cannot be made to depend
/// on a name being free, so each import checks once its groups are in, and merges every group of the name made
/// meanwhile into one: the one with the least identifier, which every import that checks picks alike. Whichever
/// import commits its group last sees all the others when it checks, so one group is left. A merge adds the members
/// and deletes the group in one transaction that reads the members (``SaveOperation/addMembersOfGroup(source:groupIdentifier:)``),
/// so a card another import adds meanwhile moves with them; an import whose group went plans its next batch on the
/// groups there now (``rereadGroups()``).
extension ImportSession {
    /// Times a merge is tried again after another import's merge changed the groups under it.
    static let groupMergeAttempts = 5

    /// Merges the groups the last commit created by name with the groups of the same names made meanwhile. Best
    /// effort, after the commit: a failure leaves the groups as they are, and the import goes on.
    mutating func mergeConcurrentGroups() async {
        let created = createdByName
        createdByName = []
        for identifier in created {
            guard let name = groups.name(of: identifier) else { continue }
            for _ in 0..<Self.groupMergeAttempts {
                do {
                    if try await merge(identifier, named: name) { break }
                } catch {
                    // The groups changed under the merge (another import merged one of them): look again.
                }
            }
        }
    }

    /// One look at the groups named `name` and a merge of them into the one with the least identifier; true when
    /// nothing is left to merge.
    private mutating func merge(_ ours: String, named name: ExactText) async throws -> Bool {
        // The groups of the name that no group card of the file claims: this import made its own by name because
        // it knew of none, so the others were made meanwhile (a strict import may have read them in since).
        let same = try await store.groups(inContainer: groups.containerIdentifier)
            .filter { ExactText($0.name) == name && !groupCardNames.claims($0.identifier) }
            .map(\.identifier)
        guard let target = same.min() else { return true }
        guard same.contains(ours) else {
            // Another import merged ours into the one it picked.
            absorbed(ours, into: target)
            return true
        }
        guard same.count > 1 else { return true }
        var operations: [SaveOperation] = []
        for group in same where group != target {
            operations.append(.addMembersOfGroup(source: group, groupIdentifier: target))
            operations.append(.deleteGroup(identifier: group))
        }
        summary.historyToken = try await store.execute(atomically: requests(operations)).historyToken
        if target != ours { absorbed(ours, into: target) }
        return true
    }

    /// Notes that the group this import made, `ours`, went into `target`.
    private mutating func absorbed(_ ours: String, into target: String) {
        groups.replace(ours, with: target)
        for (contact, joined) in joinedGroups where joined.contains(ours) {
            joinedGroups[contact]?.remove(ours)
            joinedGroups[contact]?.insert(target)
        }
        summary.groupsCreated -= 1
    }
}
