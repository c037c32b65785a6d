import CarnetStore

/// What links cards once every card is in: group cards and RELATED UIDs that named a card later in the file.
/// (CATEGORIES memberships are saved with each batch: ImportSession+Categories.)
///
/// A contact's groups in the import's container become what the file says of it: the groups its CATEGORIES
/// name and the group cards that list it. A re-imported card that drops a CATEGORIES entry leaves that group;
/// a file that says nothing of groups (no CATEGORIES on the card, no group card at all) leaves them as they are.
extension ImportSession {
    /// A save operation and the line of the card it comes from, for reporting a refusal.
    struct LinkOperation {
        var operation: SaveOperation
        var cardLine: Int
    }

    /// Group cards' groups and members, the removals they decide, and late relations. Reads the store; writes
    /// nothing. Counts the groups it creates into ``pendingGroupsCreated``.
    mutating func linkOperations() async throws -> [LinkOperation] {
        var result = try await joinResolvedCategories()
        var listed: [String: Set<String>] = [:]
        var carded: Set<String> = []
        for (card, group) in try await groupCardTargets(&result) {
            carded.insert(group)
            for (index, uid) in card.memberUIDs.enumerated() {
                if let contact = contactByUID[uid] ?? memberContacts[ExactText(uid)] {
                    if listed[contact, default: []].insert(group).inserted {
                        result.append(
                            LinkOperation(
                                operation: .addMember(contactIdentifier: contact, groupIdentifier: group),
                                cardLine: card.line))
                    }
                } else {
                    let line = index < card.memberLines.count ? card.memberLines[index] : card.line
                    summary.warnings.append(
                        VCardWarning(
                            line: line, cardLine: card.line, key: "MEMBER",
                            message: "a member names no card of the file or the store"))
                }
            }
        }
        result += try await removals(listed, carded: carded)
        result += try await lateRelations()
        ambiguousCategoryWarnings()
        return result
    }

    /// The group each group card stands for (the last card with each UID stands for its group). A card's UID
    /// decides first: the container's group with that identifier is the card's, whatever its name (renamed to the
    /// card's), and no other card takes it by name. Then, in file order, each other card takes the container's group
    /// of its name, byte for byte, that no card has taken (so that a card whose UID cannot be an identifier, or
    /// named a deleted group, finds the group it made last time, and a card read after the CATEGORIES that made its
    /// group takes that one), else a new group under its UID when that is free, else under a new identifier (which
    /// export then writes as its UID). Two cards of one name are two groups: a restored export's groups of one name
    /// were one, with the members of both. Adds the operations that create or rename groups, and finds the stored
    /// contacts members name.
    private mutating func groupCardTargets(_ result: inout [LinkOperation]) async throws -> [(VCardCard, String)] {
        guard !groupCards.isEmpty else { return [] }
        memberContacts = try await storeContacts(
            ExactText.distinct(groupCards.flatMap(\.memberUIDs).filter { contactByUID[$0] == nil }))
        pendingGroupCards += groupCards.count
        var lastWithUID: [ExactText: Int] = [:]
        for (index, card) in groupCards.enumerated() { if let uid = card.uid { lastWithUID[ExactText(uid)] = index } }
        let standing = groupCards.indices.filter { index in
            groupCards[index].uid.map { lastWithUID[ExactText($0)] == index } ?? true
        }
        var targets: [Int: String] = [:]
        var taken: Set<String> = []
        for index in standing {
            let card = groupCards[index]
            guard let uid = card.uid, Identifiers.isValid(uid), groups.contains(identifier: uid) else { continue }
            let name = ExactText(GroupCardNames.name(of: card))
            if groups.name(of: uid) != name {
                let group = Group(identifier: uid, name: name.text)
                result.append(LinkOperation(operation: .updateGroup(group, baseRevision: nil), cardLine: card.line))
                groups.rename(uid, to: name)
            }
            targets[index] = uid
            taken.insert(uid)
        }
        let uids = standing.compactMap { targets[$0] == nil ? groupCards[$0].uid : nil }.filter(Identifiers.isValid)
        let unavailable = try await store.unavailableIdentifiers(uids)
        // A contact of this file may have taken the UID as its identifier, saved or not yet: the group then takes a
        // new one (it took the UID too, and the group's creation failed, its name and members lost).
        let takenByContacts = Set(contactByUID.values)
        for index in standing where targets[index] == nil {
            let card = groupCards[index]
            let name = GroupCardNames.name(of: card)
            if let existing = groups.identifiers(named: ExactText(name)).first(where: { !taken.contains($0) }) {
                targets[index] = existing
                taken.insert(existing)
                continue
            }
            let free = card.uid.flatMap { uid in
                Identifiers.isValid(uid) && !unavailable.contains(uid) && !groups.contains(identifier: uid)
                    && !takenByContacts.contains(uid) ? uid : nil
            }
            let group = Group(identifier: free ?? Contact.makeIdentifier(), name: name)
            result.append(
                LinkOperation(operation: .addGroup(group, containerIdentifier: groups.container), cardLine: card.line))
            groups.note(group)
            pendingGroupsCreated += 1
            targets[index] = group.identifier
            taken.insert(group.identifier)
        }
        return standing.compactMap { index in targets[index].map { (groupCards[index], $0) } }
    }

    /// A re-imported card leaves a group of the container that the file speaks for and does not put it in: a group
    /// whose card is in the file and does not list it, unless its CATEGORIES put it there; a group whose name its
    /// CATEGORIES do not give. A group the file says nothing of keeps it: an export of one group read back into its
    /// book took its contacts out of every other group (an outside tester's find), and a CATEGORIES name that two
    /// groups bear (`X,X`) took them out of the one it did not resolve to. A group an earlier card of the contact
    /// put it in during this import is spoken for too, so that batches do not decide what the file leaves.
    private func removals(_ listed: [String: Set<String>], carded: Set<String>) async throws -> [LinkOperation] {
        let decided = regrouped.filter { $0.categories != nil || !groupCards.isEmpty }
        var result: [LinkOperation] = []
        for start in stride(from: 0, to: decided.count, by: 1000) {
            let chunk = decided[start..<min(start + 1000, decided.count)]
            let current = try await store.groups(ofContacts: chunk.map(\.contact))
            for card in chunk {
                var wanted = listed[card.contact] ?? []
                let categories = card.lastWithoutCategories && !groupCards.isEmpty ? nil : card.categories
                wanted.formUnion(categoryGroups(categories ?? []))
                let named = Set((categories ?? []).map(ExactText.init))
                // The memberships of this commit too (a strict import commits once, at the end).
                let stored = (current[card.contact] ?? []).filter {
                    $0.containerIdentifier == groups.containerIdentifier
                }
                var memberOf = stored.map(\.identifier)
                memberOf += (plannedGroups[card.contact] ?? []).subtracting(memberOf).sorted()
                for group in memberOf where !wanted.contains(group) {
                    let name = groups.name(of: group)
                    let spokenFor =
                        carded.contains(group) || (categories != nil && !(name.map(named.contains) ?? false))
                        || joinedGroups[card.contact]?.contains(group) == true
                    guard spokenFor else { continue }
                    result.append(
                        LinkOperation(
                            operation: .removeMember(contactIdentifier: card.contact, groupIdentifier: group),
                            cardLine: card.cardLine))
                }
            }
        }
        return result
    }
}
