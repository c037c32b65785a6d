import CarnetStore

/// Groups that went while an import ran: another import merged its group of a name into one made meanwhile
/// (``mergeConcurrentGroups()``), or a client deleted it. Every later card that named it was refused ("No such
/// group"), and a whole import was skipped, in a run of twelve imports into three books at once on a loaded
/// machine. The import reads the container's groups again and plans the batch anew: the cards join the group of
/// that name that is there now, or make one.
extension ImportSession {
    /// Times one batch (or a strict import) is planned again for groups that went: each time needs another
    /// writer to delete a group again in between, so a bound only stops a client that deletes without end.
    static let goneGroupRetries = 3

    /// Whether the store refused a save for a group of the container that this import knew of and that is gone.
    func refusedForGoneGroup(_ error: StoreError) -> Bool {
        error.code == .recordDoesNotExist
            && error.affectedRecordIdentifiers.contains { groups.contains(identifier: $0) }
    }

    /// Reads the container's groups again. A contact the import put in a group that went is counted as put in
    /// the groups of that name now there (a merge moved it into one of them), so that the file's last card still
    /// decides its groups.
    mutating func rereadGroups() async throws {
        let old = groups
        groups = try await GroupDirectory(store: store, container: importer.containerIdentifier)
        for (contact, joined) in joinedGroups {
            let gone = joined.filter { !groups.contains(identifier: $0) }
            guard !gone.isEmpty else { continue }
            var kept = joined.subtracting(gone)
            for group in gone {
                if let name = old.name(of: group) { kept.formUnion(groups.identifiers(named: name)) }
            }
            joinedGroups[contact] = kept
        }
    }

    /// CATEGORIES names that several groups bore when their cards were saved, so that the cards joined none, and
    /// that name one group now: the cards join it. Imports at once each made a group of a new name, and one that
    /// read the groups before either merged its own into the other saw two. Lenient imports only: a strict
    /// import's groups are not in yet, and the file's other names would lose them.
    mutating func joinResolvedCategories() async throws -> [LinkOperation] {
        guard !ambiguousCategories.isEmpty, !importer.strict else { return [] }
        try await rereadGroups()
        var result: [LinkOperation] = []
        for (contact, entry) in ambiguousCategories.sorted(by: { $0.value.cardLine < $1.value.cardLine }) {
            for name in entry.names {
                guard case .group(let group) = categoryTarget(ExactText(name)) else { continue }
                if joinedGroups[contact, default: []].insert(group).inserted {
                    result.append(
                        LinkOperation(
                            operation: .addMember(contactIdentifier: contact, groupIdentifier: group),
                            cardLine: entry.cardLine))
                }
            }
        }
        return result
    }
}
