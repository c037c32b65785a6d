import CarnetStore

/// The store changed under an import: a group it knew went (a client deleted it, or merged it into another), or
/// another import made the group of a name meanwhile (``GroupNameAbsence``). Every later card that named a gone
/// group was refused ("No such group"), and a whole import was skipped, in a CI run of twelve imports into three
/// books at once. The import reads the container's groups again and plans the batch anew: the cards join the group
/// of that name that is there now, or make one.
extension ImportSession {
    /// Times one batch (or a strict import) is planned again for groups that went or came: each time needs another
    /// writer to change the groups again in between, so a bound only stops a client that does so without end.
    static let goneGroupRetries = 3

    /// Whether the store refused a save for a group of the container that this import knew of and that is gone.
    func refusedForGoneGroup(_ error: StoreError) -> Bool {
        error.code == .recordDoesNotExist
            && error.affectedRecordIdentifiers.contains { groups.contains(identifier: $0) }
    }

    /// Whether a strict import's one commit was refused for what another writer did while it was planned: a
    /// record it read is gone, one it adds was added meanwhile (its plan checked every identifier, so neither
    /// happens otherwise), or a group of a name it makes a group of was made. Planned again on the store as it is
    /// then, it commits as it would have after that writer.
    static func refusedForChangedStore(_ error: StoreError) -> Bool {
        error.code == .recordDoesNotExist || error.code == .insertedRecordAlreadyExists
            || GroupNameAbsence.refused(error)
    }

    /// Reads the container's groups again. A contact the import put in a group that went is counted as put in
    /// the groups of that name now there (a merge moved it into one of them), so that the file's last card still
    /// decides its groups.
    mutating func rereadGroups() async throws {
        let old = groups
        try await groups.reread(store)
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
    /// read the groups before either merged its own into the other saw two. What stays unresolved (still several
    /// groups, or none left) is left in ``ambiguousCategories`` for ``ambiguousCategoryWarnings()``.
    mutating func joinResolvedCategories() async throws -> [LinkOperation] {
        guard !ambiguousCategories.isEmpty else { return [] }
        try await rereadGroups()
        var result: [LinkOperation] = []
        var added: Set<[String]> = []
        for (contact, entry) in ambiguousCategories.sorted(by: { $0.value.cardLine < $1.value.cardLine }) {
            // A contact whose last card says nothing of groups, in a file with group cards: those alone decide.
            if !groupCards.isEmpty, let index = regroupedIndex[contact], regrouped[index].lastWithoutCategories {
                ambiguousCategories[contact] = nil
                continue
            }
            var unresolved: [String] = []
            for name in entry.names {
                // A group card of the file that gives the name, read after the card: its members decide.
                guard groupCardNames.definition(of: ExactText(name)).isNoCard else { continue }
                let candidates = unclaimedGroups(named: ExactText(name))
                guard candidates.count == 1, let group = candidates.first else {
                    unresolved.append(name)
                    continue
                }
                // Sent even when the import counts the contact in already: the group it counted may have been
                // deleted rather than merged into this one (the store makes a repeated add a no-op).
                joinedGroups[contact, default: []].insert(group)
                if added.insert([contact, group]).inserted {
                    result.append(
                        LinkOperation(
                            operation: .addMember(contactIdentifier: contact, groupIdentifier: group),
                            cardLine: entry.cardLine))
                }
            }
            ambiguousCategories[contact] = unresolved.isEmpty ? nil : (unresolved, entry.cardLine)
        }
        return result
    }
}
