import CarnetStore

/// One import's state: the counts, what it learned of the file's cards (names by UID, the contact each card
/// became, group cards) and the groups of the target container.
struct ImportSession {
    let importer: VCardImporter
    var store: any ContactStore { importer.store }
    var summary = VCardImporter.Summary()
    var groups: GroupDirectory
    /// The display name of every contact card of the file, by UID (without `urn:uuid:`): what a RELATED UID
    /// resolves to.
    var nameByUID: [String: String] = [:]
    /// The line of every contact card of the file, by UID as written: a later card with the same UID updates the
    /// contact the first one made, and says so.
    var cardLineByUID: [String: Int] = [:]
    /// The contact each saved card became, by the card's UID (without `urn:uuid:`) or derived identifier.
    var contactByUID: [String: String] = [:]
    /// Re-imported cards and what decides their groups in the container, once every card is in: their CATEGORIES
    /// (group names) and the file's group cards; for a card without CATEGORIES (`nil`), the group cards alone, if
    /// the file has any. In file order; a card repeating a UID replaces the earlier card's entry.
    var regrouped: [Regrouped] = []
    var regroupedIndex: [String: Int] = [:]

    struct Regrouped {
        var contact: String
        var categories: [String]?
        var cardLine: Int
    }
    var groupCards: [VCardCard] = []
    /// The line of every group card of the file, by UID as written: a later group card with the same UID replaces it.
    var groupCardLineByUID: [String: Int] = [:]
    /// RELATED UIDs no card read so far nor the store knew: resolved once every card is in.
    var deferredRelations: [(contact: String, reference: VCardCard.RelatedUID, cardLine: Int)] = []
    /// RELATED UIDs resolved when their card was saved, with the name they resolved to: a card read later with
    /// the same UID renames them once every card is in.
    var resolvedRelations: [(contact: String, reference: VCardCard.RelatedUID, name: String, cardLine: Int)] = []
    /// Contacts whose values a later card with the same UID replaced, with that card's line: the relations that
    /// earlier cards left to resolve are no longer theirs.
    var replacedAt: [String: Int] = [:]
    /// Counts of a strict import, applied once its commit is made.
    var pendingCounts = (added: 0, updated: 0, unchanged: 0)
    var pendingGroupsCreated = 0
    var pendingGroupCards = 0
    /// The contacts planned but not yet saved, by identity, as their cards leave them: a card that repeats an
    /// earlier card's UID in the same commit is compared with this, not with the store. Emptied when a lenient
    /// batch is saved or refused; a strict import keeps it until its one commit.
    var plannedContacts: [String: Contact] = [:]
    /// The groups the CATEGORIES of planned cards put their contacts in, by contact, emptied with
    /// ``plannedContacts``.
    var plannedGroups: [String: Set<String>] = [:]
    /// Stored contacts that group cards' members name, by UID.
    var memberContacts: [String: String] = [:]
    /// The contacts the cards added or changed, for ``linkDuplicates()``.
    var importedContacts: [Membership] = []

    struct Membership {
        var contact: String
        var cardLine: Int
    }

    /// Whether a contact may keep a vCard UID: some stored contact does, or this import added one. While none
    /// does (a first import), cards are not looked up by kept UID.
    var keptUIDsMayExist: Bool

    init(importer: VCardImporter) async throws {
        self.importer = importer
        self.groups = try await GroupDirectory(store: importer.store, container: importer.containerIdentifier)
        self.keptUIDsMayExist = try await importer.store.hasContactsKeepingVCardUIDs()
    }

    /// Notes what other cards may refer to: a contact card's name by UID, a group card.
    mutating func learn(_ card: VCardCard) {
        switch card.kind {
        case .contact:
            // References name UIDs without `urn:uuid:`: the card is known by that form.
            if let uid = card.uid {
                nameByUID[UIDReference.bare(uid)] = DisplayName.of(card.contact)
                // As written: cards match contacts by the UID as written (`urn:uuid:x` and `x` are two contacts).
                if let first = cardLineByUID[uid] {
                    summary.warnings.append(
                        VCardWarning(
                            line: card.line, cardLine: card.line, key: "UID",
                            message:
                                "repeats the UID of the card at line \(first): this card's values replace that card's"
                        ))
                } else {
                    cardLineByUID[uid] = card.line
                }
            }
        case .group:
            if let uid = card.uid {
                if let first = groupCardLineByUID[uid] {
                    summary.warnings.append(
                        VCardWarning(
                            line: card.line, cardLine: card.line, key: "UID",
                            message:
                                "repeats the UID of the group card at line \(first): this card's name and members replace that card's"
                        ))
                    groups.forgetPreferred(uid)
                } else {
                    groupCardLineByUID[uid] = card.line
                }
            }
            groupCards.append(card)
            // CATEGORIES of later cards that create this group create it under the card's UID.
            if let uid = card.uid, Identifiers.isValid(uid), !card.groupName.isEmpty {
                groups.prefer(uid, for: card.groupName)
            }
        }
        summary.warnings += card.warnings
    }

    /// A card ready to save: its operations, or why the store would refuse it.
    struct PlannedCard {
        var card: VCardCard
        var identity: String
        var contactIdentifier: String
        /// The add or update; `nil` for a card that changes nothing.
        var operation: SaveOperation?
        var outcome = Outcome.unchanged
        var problem: VCardIssue?
        /// RELATED UIDs to resolve once every card is in.
        var deferred: [VCardCard.RelatedUID] = []
        /// RELATED UIDs resolved now, with the name each resolved to.
        var resolved: [(reference: VCardCard.RelatedUID, name: String)] = []
        /// What planning had to leave out (relations past the store's limit), reported once the card is saved.
        var warnings: [VCardWarning] = []

        enum Outcome { case added, updated, unchanged }
    }

    /// Saves one batch of cards and their CATEGORIES memberships in one transaction; when the store refuses it,
    /// card by card, so only the card at fault is skipped.
    mutating func save(_ cards: [VCardCard], checkingIdentifiers: Bool = false) async throws {
        plannedContacts = [:]
        plannedGroups = [:]
        let planned = try await plan(cards, checkingIdentifiers: checkingIdentifiers || importer.strict)
        var created = 0
        var operations = planned.compactMap { $0.problem == nil ? $0.operation : nil }
        operations += try await membershipOperations(planned, created: &created)
        plannedContacts = [:]
        plannedGroups = [:]
        do {
            if !operations.isEmpty {
                summary.historyToken = try await store.execute(atomically: requests(operations)).historyToken
            }
            groups.commit()
            summary.groupsCreated += created
            for card in planned {
                if let problem = card.problem {
                    summary.skipped.append(problem)
                } else {
                    record(card)
                }
            }
            commitCounts()
        } catch let error as StoreError {
            groups.rollBack()
            // An identifier in use or retired (a restore after deletes): plan again with every identifier
            // checked, so the batch still saves in one transaction.
            if error.code == .insertedRecordAlreadyExists, !checkingIdentifiers {
                return try await save(cards, checkingIdentifiers: true)
            }
            guard cards.count > 1 else {
                summary.skipped.append(VCardIssue(line: cards[0].line, message: error.description))
                return
            }
            for card in cards { try await save([card], checkingIdentifiers: true) }
        }
    }

    /// Notes a planned card as saved (or, when strict, as part of the one commit to come).
    mutating func record(_ card: PlannedCard) {
        if card.outcome == .added, card.card.contact.vCardProperties.contains(where: { $0.value.hasPrefix("UID:") }) {
            keptUIDsMayExist = true
        }
        // Only a card with a UID can be named by a group card or RELATED.
        if let uid = card.card.uid {
            contactByUID[UIDReference.bare(card.identity)] = card.contactIdentifier
            if let first = cardLineByUID[uid], first != card.card.line {
                replacedAt[card.contactIdentifier] = card.card.line
            }
        }
        for reference in card.deferred {
            deferredRelations.append((card.contactIdentifier, reference, card.card.line))
        }
        for (reference, name) in card.resolved {
            resolvedRelations.append((card.contactIdentifier, reference, name, card.card.line))
        }
        summary.warnings += card.warnings
        if importer.linkDuplicates, card.outcome != .unchanged {
            importedContacts.append(Membership(contact: card.contactIdentifier, cardLine: card.card.line))
        }
        switch card.outcome {
        case .added: pendingCounts.added += 1
        case .updated: pendingCounts.updated += 1
        case .unchanged: pendingCounts.unchanged += 1
        }
        if card.outcome != .added {
            let entry = Regrouped(
                contact: card.contactIdentifier,
                categories: card.card.categories.isEmpty ? nil : card.card.categories, cardLine: card.card.line)
            if let index = regroupedIndex[card.contactIdentifier] {
                regrouped[index] = entry
            } else {
                regroupedIndex[card.contactIdentifier] = regrouped.count
                regrouped.append(entry)
            }
        }
    }

    /// Operations as save requests of at most ``StoreLimits/operationsPerSave``, for one atomic commit.
    func requests(_ operations: [SaveOperation]) -> [SaveRequest] {
        stride(from: 0, to: operations.count, by: StoreLimits.operationsPerSave).map { start in
            let end = min(start + StoreLimits.operationsPerSave, operations.count)
            return SaveRequest(
                transactionAuthor: importer.transactionAuthor, operations: Array(operations[start..<end]))
        }
    }

    mutating func commitCounts() {
        summary.added += pendingCounts.added
        summary.updated += pendingCounts.updated
        summary.unchanged += pendingCounts.unchanged
        pendingCounts = (0, 0, 0)
    }
}
