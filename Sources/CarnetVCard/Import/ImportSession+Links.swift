import CarnetStore

/// What links cards once every card is in: groups from CATEGORIES and group cards, memberships, and RELATED
/// UIDs that named a card later in the file.
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

    struct MemberPair: Hashable {
        var contact: String
        var group: String
    }

    /// Reads the store; writes nothing. Counts the groups it creates into ``pendingGroupsCreated``.
    mutating func linkOperations() async throws -> [LinkOperation] {
        var result: [LinkOperation] = []
        var wanted: [String: Set<String>] = [:]
        var added: Set<MemberPair> = []
        func addMember(_ contact: String, _ group: String, _ line: Int) {
            wanted[contact, default: []].insert(group)
            if added.insert(MemberPair(contact: contact, group: group)).inserted {
                result.append(
                    LinkOperation(
                        operation: .addMember(contactIdentifier: contact, groupIdentifier: group), cardLine: line))
            }
        }
        for (card, group) in try await groupCardTargets(&result) {
            for uid in card.memberUIDs {
                if let contact = contactByUID[uid] ?? memberContacts[uid] {
                    addMember(contact, group, card.line)
                } else {
                    summary.warnings.append(
                        VCardWarning(
                            line: card.line, cardLine: card.line, key: "MEMBER",
                            message: "a member names no card of the file or the store"))
                }
            }
        }
        for membership in memberships {
            for name in membership.categories {
                var operations: [SaveOperation] = []
                let group = groups.ensure(name, in: &operations)
                if group.created { pendingGroupsCreated += 1 }
                result += operations.map { LinkOperation(operation: $0, cardLine: membership.cardLine) }
                addMember(membership.contact, group.identifier, membership.cardLine)
            }
        }
        result += try await removals(wanted)
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
            Array(Set(groupCards.flatMap(\.memberUIDs).filter { contactByUID[$0] == nil })))
        var targets: [(VCardCard, String)] = []
        for card in groupCards {
            let name = card.groupName.isEmpty ? (card.uid ?? "Group") : card.groupName
            pendingGroupCards += 1
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
                        && !groups.identifiers.contains(uid) ? uid : nil
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

    /// Leaves the groups of the container a re-imported card no longer names.
    private func removals(_ wanted: [String: Set<String>]) async throws -> [LinkOperation] {
        let fileHasGroupCards = !groupCards.isEmpty
        let cards = memberships.filter { $0.existed && (fileHasGroupCards || !$0.categories.isEmpty) }
        var result: [LinkOperation] = []
        for start in stride(from: 0, to: cards.count, by: 1000) {
            let chunk = cards[start..<min(start + 1000, cards.count)]
            let current = try await store.groups(ofContacts: chunk.map(\.contact))
            for card in chunk {
                for group in current[card.contact] ?? []
                where group.containerIdentifier == groups.containerIdentifier
                    && !(wanted[card.contact]?.contains(group.identifier) ?? false)
                {
                    result.append(
                        LinkOperation(
                            operation: .removeMember(
                                contactIdentifier: card.contact, groupIdentifier: group.identifier),
                            cardLine: card.cardLine))
                }
            }
        }
        return result
    }
}
