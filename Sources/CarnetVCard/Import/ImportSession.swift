import CarnetStore

/// One import's state: the counts, what it learned of the file's cards (names by UID, the contact each card
/// became, group cards) and the groups of the target container.
struct ImportSession {
    let importer: VCardImporter
    var store: any ContactStore { importer.store }
    var summary = VCardImporter.Summary()
    var groups: GroupDirectory
    /// The display name of every contact card of the file, by its UID: what a RELATED UID resolves to.
    var nameByUID = UIDIndex()
    /// The line of every contact card of the file, by UID as written (byte for byte, as the store finds contacts by
    /// it): a later card with the same UID updates the contact the first one made, and says so.
    var cardLineByUID: [ExactText: Int] = [:]
    /// The line of the first card without a UID to derive each identifier (``ContentIdentifier``): a later one
    /// updates the contact that card made, and says so.
    var cardLineByDerivedIdentifier: [ExactText: Int] = [:]
    /// The contact each saved card became, by the card's UID or derived identifier: what a MEMBER resolves to.
    var contactByUID = UIDIndex()
    /// Re-imported cards and what decides their groups in the container, once every card is in: their CATEGORIES
    /// (group names) and the file's group cards; for a card without CATEGORIES, the group cards alone, if the file
    /// has any. In file order, one entry per contact, which later cards with its UID amend.
    var regrouped: [Regrouped] = []
    var regroupedIndex: [String: Int] = [:]

    struct Regrouped {
        var contact: String
        /// The CATEGORIES of the last of its cards that had some.
        var categories: [String]?
        /// Whether its last card had none: in a file with group cards, those alone decide; in one without, the
        /// earlier card's CATEGORIES stand (a card that says nothing of groups leaves them as they are).
        var lastWithoutCategories = false
        var cardLine: Int
    }

    var groupCards: [VCardCard] = []
    /// The names and UIDs the group cards read so far give.
    var groupCardNames = GroupCardNames()
    /// Group cards' UIDs that CATEGORIES cannot create their groups under: in use (by a contact, or a group of
    /// another container) or retired.
    var takenGroupUIDs: Set<String> = []
    /// The last card with CATEGORIES of each contact whose CATEGORIES name a name several groups of the container
    /// bear and no group card gives: reported once every card is in, if the name is still so.
    var ambiguousCategories: [String: (names: [String], cardLine: Int)] = [:]
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
    var plannedContacts: [ExactText: Contact] = [:]
    /// The groups the CATEGORIES of planned cards put their contacts in, by contact, emptied with
    /// ``plannedContacts``.
    var plannedGroups: [String: Set<String>] = [:]
    /// Every group the CATEGORIES of any card of the import put a contact in, by contact, kept for the whole
    /// import: the last card decides those too (``removals(_:carded:)``), whatever batches the cards fell in.
    var joinedGroups: [String: Set<String>] = [:]
    /// Stored contacts that group cards' members name, by UID.
    var memberContacts: [ExactText: String] = [:]
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
    ///
    /// - Parameter rereads: Times this batch was planned again for groups that went or came (``rereadGroups()``).
    mutating func save(_ cards: [VCardCard], checkingIdentifiers: Bool = false, rereads: Int = 0) async throws {
        let planned = try await plan(cards, checkingIdentifiers: checkingIdentifiers || importer.strict)
        var created = 0
        var operations = planned.compactMap { $0.problem == nil ? $0.operation : nil }
        operations += try await membershipOperations(planned, created: &created)
        // What the next plan compares with is the store again, whether this batch commits or is tried card by card.
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
            let groupsChanged = refusedForGoneGroup(error) || GroupNameAbsence.refused(error)
            groups.rollBack()
            if groupsChanged, rereads < Self.goneGroupRetries {
                try await rereadGroups()
                return try await save(cards, checkingIdentifiers: checkingIdentifiers, rereads: rereads + 1)
            }
            // An identifier in use or retired (a restore after deletes): plan again with every identifier
            // checked, so the batch still saves in one transaction.
            if error.code == .insertedRecordAlreadyExists, !checkingIdentifiers {
                return try await save(cards, checkingIdentifiers: true, rereads: rereads)
            }
            guard cards.count > 1 else {
                summary.skipped.append(VCardIssue(line: cards[0].line, message: error.description))
                return
            }
            for card in cards { try await save([card], checkingIdentifiers: true) }
            return
        }
    }

    /// Operations as save requests of at most ``StoreLimits/operationsPerSave``, for one atomic commit. The first
    /// states the names of the groups the commit makes that no group bore (``GroupNameAbsence``): checked before
    /// any operation, in the one transaction.
    func requests(_ operations: [SaveOperation]) -> [SaveRequest] {
        var requests = stride(from: 0, to: operations.count, by: StoreLimits.operationsPerSave).map { start in
            let end = min(start + StoreLimits.operationsPerSave, operations.count)
            return SaveRequest(
                transactionAuthor: importer.transactionAuthor, operations: Array(operations[start..<end]))
        }
        if !requests.isEmpty { requests[0].absentGroupNames = groups.newNames }
        return requests
    }

    mutating func commitCounts() {
        summary.added += pendingCounts.added
        summary.updated += pendingCounts.updated
        summary.unchanged += pendingCounts.unchanged
        pendingCounts = (0, 0, 0)
    }
}
