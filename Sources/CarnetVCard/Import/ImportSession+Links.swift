import CarnetStore

/// What links cards: CATEGORIES memberships, saved with each batch, and once every card is in, group cards and
/// RELATED UIDs that named a card later in the file.
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

    /// The memberships a batch's cards state with CATEGORIES, saved with the cards: groups created by name and the
    /// cards added to theirs. (A re-imported card leaves the container's other groups once every card is in,
    /// when the group cards are known too: ``removals(_:)``.) Counts the groups it creates.
    mutating func membershipOperations(_ cards: [PlannedCard], created: inout Int) async throws -> [SaveOperation] {
        var operations: [SaveOperation] = []
        let preferred = Set(cards.flatMap(\.card.categories)).compactMap { name in
            groups.identifier(for: name) == nil ? groups.preferred[name] : nil
        }
        if !preferred.isEmpty { groups.dropPreferred(try await store.unavailableIdentifiers(preferred)) }
        // A contact's groups come from the last card of the batch with CATEGORIES for it: an earlier one (its UID
        // repeated) would add groups the later one takes away again, on every import of the file. Its groups are
        // still made, as when the two cards fall in two batches: what an import creates does not hang on batches.
        var last: [String: Int] = [:]
        for (position, card) in cards.enumerated() where card.problem == nil && !card.card.categories.isEmpty {
            last[card.contactIdentifier] = position
        }
        for (position, card) in cards.enumerated() where card.problem == nil && !card.card.categories.isEmpty {
            guard last[card.contactIdentifier] == position else {
                for name in card.card.categories where groups.ensure(name, in: &operations).created { created += 1 }
                continue
            }
            let contact = card.contactIdentifier
            // A card that repeats the UID of an earlier card of this commit replaces the groups that card gave.
            let planned = plannedGroups[contact] ?? []
            var wanted: Set<String> = []
            for name in card.card.categories {
                let group = groups.ensure(name, in: &operations)
                if group.created { created += 1 }
                if wanted.insert(group.identifier).inserted, !planned.contains(group.identifier) {
                    operations.append(.addMember(contactIdentifier: contact, groupIdentifier: group.identifier))
                }
            }
            for group in planned.subtracting(wanted).sorted() {
                operations.append(.removeMember(contactIdentifier: contact, groupIdentifier: group))
            }
            plannedGroups[contact] = wanted
        }
        return operations
    }

    /// Group cards' groups and members, the removals they decide, and late relations. Reads the store; writes
    /// nothing. Counts the groups it creates into ``pendingGroupsCreated``.
    mutating func linkOperations() async throws -> [LinkOperation] {
        var result: [LinkOperation] = []
        var listed: [String: Set<String>] = [:]
        for (card, group) in try await groupCardTargets(&result) {
            for (index, uid) in card.memberUIDs.enumerated() {
                if let contact = contactByUID[UIDReference.key(uid)] ?? memberContacts[uid] {
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
        result += try await removals(listed)
        result += try await lateRelations()
        return result
    }

    /// The group each group card stands for: the container's group with the card's UID as identifier, else the
    /// one with its name, else a new one (under the UID when it is free). Adds the operations that create or
    /// rename groups, and finds the stored contacts members name.
    private mutating func groupCardTargets(_ result: inout [LinkOperation]) async throws -> [(VCardCard, String)] {
        guard !groupCards.isEmpty else { return [] }
        let uids = groupCards.compactMap(\.uid).filter(Identifiers.isValid)
        let stored = Dictionary(
            try await store.groups(withIdentifiers: uids).map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        let unavailable = try await store.unavailableIdentifiers(uids)
        memberContacts = try await storeContacts(
            Array(Set(groupCards.flatMap(\.memberUIDs).filter { contactByUID[UIDReference.key($0)] == nil })))
        // A contact of this file may have taken the UID as its identifier, saved or not yet: the group then takes a
        // new one (it took the UID too, and the group's creation failed, its name and members lost).
        let takenByContacts = Set(contactByUID.values)
        // A group card that repeats an earlier one's UID replaces it: the last one stands for the group.
        var lastWithUID: [String: Int] = [:]
        for (index, card) in groupCards.enumerated() { if let uid = card.uid { lastWithUID[uid] = index } }
        var targets: [(VCardCard, String)] = []
        for (index, card) in groupCards.enumerated() {
            pendingGroupCards += 1
            if let uid = card.uid, lastWithUID[uid] != index { continue }
            let name = card.groupName.isEmpty ? (card.uid ?? "Group") : card.groupName
            if let uid = card.uid, var group = stored[uid], group.containerIdentifier == groups.containerIdentifier {
                if group.name != name {
                    group.name = name
                    result.append(LinkOperation(operation: .updateGroup(group, baseRevision: nil), cardLine: card.line))
                }
                targets.append((card, uid))
            } else if let existing = groups.identifier(for: name) {
                targets.append((card, existing))
            } else {
                let free = card.uid.flatMap { uid in
                    Identifiers.isValid(uid) && !unavailable.contains(uid) && stored[uid] == nil
                        && !groups.contains(identifier: uid) && !takenByContacts.contains(uid) ? uid : nil
                }
                let group = Group(identifier: free ?? Contact.makeIdentifier(), name: name)
                result.append(
                    LinkOperation(
                        operation: .addGroup(group, containerIdentifier: groups.container), cardLine: card.line))
                groups.note(name, groupIdentifier: group.identifier)
                pendingGroupsCreated += 1
                targets.append((card, group.identifier))
            }
        }
        return targets
    }

    /// A re-imported card leaves the container's groups that neither its CATEGORIES name nor a group card of the
    /// file lists it in; one without CATEGORIES, only in a file with group cards (a file that says nothing of groups
    /// leaves them as they are).
    private func removals(_ listed: [String: Set<String>]) async throws -> [LinkOperation] {
        let decided = regrouped.filter { $0.categories != nil || !groupCards.isEmpty }
        var result: [LinkOperation] = []
        for start in stride(from: 0, to: decided.count, by: 1000) {
            let chunk = decided[start..<min(start + 1000, decided.count)]
            let current = try await store.groups(ofContacts: chunk.map(\.contact))
            for card in chunk {
                var wanted = listed[card.contact] ?? []
                let categories = card.lastWithoutCategories && !groupCards.isEmpty ? [] : card.categories ?? []
                for name in categories {
                    if let group = groups.identifier(for: name) { wanted.insert(group) }
                }
                // The memberships of this commit too (a strict import commits once, at the end).
                let stored = (current[card.contact] ?? []).filter {
                    $0.containerIdentifier == groups.containerIdentifier
                }
                var memberOf = stored.map(\.identifier)
                memberOf += (plannedGroups[card.contact] ?? []).subtracting(memberOf).sorted()
                for group in memberOf where !wanted.contains(group) {
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
