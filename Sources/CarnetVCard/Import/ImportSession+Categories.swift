import CarnetStore

/// CATEGORIES: the groups a contact card names by name, resolved byte for byte.
///
/// A name one group card of the file gives is that card's group, the one the card stands for (see
/// ``groupCardTargets(_:)``), created under the card's UID when it does not exist yet. A name several group cards
/// give is theirs to decide: a name cannot tell their groups apart, so their MEMBER lists say who is in which, and
/// such a CATEGORIES entry puts its card in none (a restored export's two "Friends" kept their own members, where
/// both went into the first). A name no group card gives is the container's group of that name, created when
/// missing; when several groups of the container bear it, the card joins none of them and stays in those it is
/// in, with a warning: nothing in the file says which.
extension ImportSession {
    /// What a CATEGORIES name stands for.
    enum CategoryTarget {
        /// A group of the container.
        case group(String)
        /// A group to create, under the UID of the one group card that gives the name when that is free.
        case new(identifier: String?)
        /// Several groups bear the name: group cards of the file (whose members decide), or, without any, the
        /// container's groups.
        case ambiguous(byGroupCards: Bool)
    }

    /// What a CATEGORIES name stands for, as the group cards read so far and the container's groups say.
    func categoryTarget(_ name: ExactText) -> CategoryTarget {
        switch groupCardNames.definition(of: name) {
        case .severalCards:
            return .ambiguous(byGroupCards: true)
        case .oneCard(let uid):
            // As the card will find its group once every card is in: by UID, else by name, else a new one.
            if let uid, Identifiers.isValid(uid), groups.contains(identifier: uid) { return .group(uid) }
            if let existing = unclaimedGroups(named: name).first { return .group(existing) }
            if let uid, Identifiers.isValid(uid), !takenGroupUIDs.contains(uid) { return .new(identifier: uid) }
            return .new(identifier: nil)
        case .noCard:
            let candidates = unclaimedGroups(named: name)
            if candidates.count > 1 { return .ambiguous(byGroupCards: false) }
            if let only = candidates.first { return .group(only) }
            return .new(identifier: nil)
        }
    }

    /// The container's groups of the name that no group card claims by its UID.
    func unclaimedGroups(named name: ExactText) -> [String] {
        groups.identifiers(named: name).filter { !groupCardNames.claims($0) }
    }

    /// Whether several groups of the container bear the name and no group card says which is meant.
    func isAmbiguousInContainer(_ name: ExactText) -> Bool {
        if case .ambiguous(byGroupCards: false) = categoryTarget(name) { return true }
        return false
    }

    /// The memberships a batch's cards state with CATEGORIES, saved with the cards: groups created by name and the
    /// cards added to theirs. (A re-imported card leaves the container's other groups once every card is in,
    /// when the group cards are known too: ``removals(_:carded:)``.) Counts the groups it creates.
    mutating func membershipOperations(_ cards: [PlannedCard], created: inout Int) async throws -> [SaveOperation] {
        let cards = cards.filter { $0.problem == nil && !$0.card.categories.isEmpty }
        guard !cards.isEmpty else { return [] }
        let names = ExactText.distinct(cards.flatMap(\.card.categories))
        try await checkGroupUIDs(names, cards)
        var operations: [SaveOperation] = []
        // A contact's groups come from the last card of the batch with CATEGORIES for it: an earlier one (its UID
        // repeated) would add groups the later one takes away again, on every import of the file. Its groups are
        // still made, as when the two cards fall in two batches: what an import creates does not hang on batches.
        var last: [String: Int] = [:]
        for (position, card) in cards.enumerated() { last[card.contactIdentifier] = position }
        for (position, card) in cards.enumerated() {
            guard last[card.contactIdentifier] == position else {
                for name in card.card.categories { _ = categoryGroup(name, &operations, &created) }
                continue
            }
            let contact = card.contactIdentifier
            // A card that repeats the UID of an earlier card of this commit replaces the groups that card gave.
            let planned = plannedGroups[contact] ?? []
            var wanted: Set<String> = []
            for name in card.card.categories {
                guard let group = categoryGroup(name, &operations, &created) else { continue }
                if wanted.insert(group).inserted, !planned.contains(group) {
                    operations.append(.addMember(contactIdentifier: contact, groupIdentifier: group))
                    joinedGroups[contact, default: []].insert(group)
                }
            }
            for group in planned.subtracting(wanted).sorted() {
                operations.append(.removeMember(contactIdentifier: contact, groupIdentifier: group))
            }
            plannedGroups[contact] = wanted
        }
        return operations
    }

    /// Notes the UIDs of the group cards that give these names that no group could be created under: in use or
    /// retired in the store, or a contact's identifier (the file's, saved or in this batch). One store lookup for
    /// the UIDs not checked yet.
    private mutating func checkGroupUIDs(_ names: [String], _ cards: [PlannedCard]) async throws {
        let unchecked = names.compactMap { name -> String? in
            guard case .oneCard(let uid?) = groupCardNames.definition(of: ExactText(name)), Identifiers.isValid(uid),
                !groups.contains(identifier: uid), !takenGroupUIDs.contains(uid)
            else { return nil }
            return uid
        }
        guard !unchecked.isEmpty else { return }
        takenGroupUIDs.formUnion(try await store.unavailableIdentifiers(unchecked))
        let contacts = Set(contactByUID.values).union(cards.map(\.contactIdentifier))
        takenGroupUIDs.formUnion(unchecked.filter(contacts.contains))
    }

    /// The group a CATEGORIES name puts its card in, added to `operations` when it does not exist yet; `nil` for a
    /// name several groups bear.
    private mutating func categoryGroup(
        _ name: String, _ operations: inout [SaveOperation], _ created: inout Int
    ) -> String? {
        switch categoryTarget(ExactText(name)) {
        case .group(let identifier):
            return identifier
        case .ambiguous:
            return nil
        case .new(let identifier):
            // An import running at once that makes the group of this name too is kept from it by the save's
            // absent names (``GroupNameAbsence``): the later one reads the groups again and joins the first's.
            let group = Group(identifier: identifier ?? Contact.makeIdentifier(), name: name)
            groups.add(group, to: &operations)
            created += 1
            return group.identifier
        }
    }

    /// The groups the CATEGORIES names of a re-imported card keep it in, once every card is in: a name several
    /// group cards give adds none (their members decide); one only the container's groups share keeps the card in
    /// any of them.
    func categoryGroups(_ names: [String]) -> Set<String> {
        var result: Set<String> = []
        for name in names {
            switch categoryTarget(ExactText(name)) {
            case .group(let identifier): result.insert(identifier)
            case .ambiguous(byGroupCards: false): result.formUnion(groups.identifiers(named: ExactText(name)))
            case .ambiguous(byGroupCards: true), .new: break
            }
        }
        return result
    }

    /// A warning at each card whose CATEGORIES name a name that several groups of the container bear and no group
    /// card gives, once every card is in: the card joined none of them. And at each that named a group that went
    /// while the import ran (``joinResolvedCategories()`` leaves those).
    mutating func ambiguousCategoryWarnings() {
        for entry in ambiguousCategories.values.sorted(by: { $0.cardLine < $1.cardLine }) {
            let names = entry.names.map(ExactText.init)
            let message: String
            if names.contains(where: isAmbiguousInContainer) {
                message =
                    "names a name several groups of the container bear, and no group card of the file says which: "
                    + "the card joins none of them, and stays in those it is in"
            } else if names.contains(where: {
                groupCardNames.definition(of: $0).isNoCard && unclaimedGroups(named: $0).isEmpty
            }) {
                message = "names a group that was deleted while the import ran: the card joins none"
            } else {
                continue
            }
            summary.warnings.append(
                VCardWarning(line: entry.cardLine, cardLine: entry.cardLine, key: "CATEGORIES", message: message))
        }
        ambiguousCategories = [:]
    }
}
