import CarnetStore
import Foundation

/// Imports vCard files into a store.
///
/// Cards are read one at a time and saved in batches, one transaction each. A card whose UID names a contact
/// already in the store updates it (only what changed, so importing the same file twice changes nothing);
/// other cards are added. A card whose UID names a deleted contact (whose identifier is retired, never reused)
/// is added under a new identifier and keeps its UID, which export writes and later imports find it by.
/// CATEGORIES become groups of the target container, and so do group cards (4.0 `KIND:group`, Apple's
/// `X-ADDRESSBOOKSERVER-KIND:group`), with their members found by UID in the file or the store; a re-imported
/// card's groups become what the file says. A value the store cannot hold as a key is kept as a vCard property
/// and reported as a warning. A card that cannot be read, or that the store refuses, is skipped with its line
/// and reason; the rest of the file imports. In strict mode any such card refuses the whole file: everything
/// is saved in one transaction, or nothing is.
public struct VCardImporter: Sendable {
    /// What an import did.
    public struct Summary: Sendable {
        public var added = 0
        public var updated = 0
        /// Cards that matched a contact and changed nothing.
        public var unchanged = 0
        /// The cards skipped, with their lines and reasons.
        public var skipped: [VCardIssue] = []
        /// Values kept as vCard properties rather than keys, and references (RELATED, MEMBER) that named no card.
        public var warnings: [VCardWarning] = []
        /// Groups created from CATEGORIES and group cards.
        public var groupsCreated = 0
        /// Group cards imported (created or matched).
        public var groupCards = 0
        /// Cards linked to the same person in another container (``VCardImporter/linkDuplicates``).
        public var linked = 0
        /// The history token after the last save (the store's current token when nothing was saved).
        public var historyToken = ""

        public var imported: Int { added + updated + unchanged }
    }

    public let store: any ContactStore
    /// Where new contacts and groups go; `nil` for the default container.
    public var containerIdentifier: String?
    public var transactionAuthor: String?
    public var strict: Bool
    /// Cards per transaction (lenient mode).
    public var batchSize = 1000
    /// Link (not merge) each imported card to a contact of another container that is the same person: a shared
    /// email or phone number, else the same given and family name. Runs after the cards are saved.
    public var linkDuplicates = false
    /// Read the next batch of cards on a second background thread while one is saved: an import's reading and its
    /// writes then take a core each. For an import that is its process's only work (the CLI's): in a server the
    /// second thread took the core that requests had, and a save to another book beside a 100,000-card import
    /// went from 1.3–2.4× its idle p99 to 2.9–4.4×.
    public var readsAhead = false
    /// The data is text already decoded (a GraphQL string's UTF-8), not a file's bytes: ``VCardReader/textIsDecoded``.
    public var textIsDecoded = false
    /// Whether whoever asked for the import has gone (a server's client that closed its connection): checked, with
    /// the task's cancellation, before each batch and before the strict import's commit, which then throw
    /// `CancellationError`. A lenient import keeps the batches it saved. An import whose client left ran to its
    /// end, and held a server's shutdown as long (an outside tester's find).
    public var isAbandoned: @Sendable () -> Bool = { false }
    /// Asked after ``isAbandoned`` at the same points: throws when whoever asked for the import may no longer
    /// write to the store (a server's caller whose token was revoked, whose principal was disabled or whose grant
    /// was withdrawn). The import then throws ``VCardImportStopped``, keeping the batches a lenient import saved.
    /// An import that was already writing ran to its end after its caller lost access (an outside tester's find).
    public var checkAccess: (@Sendable () async throws -> Void)?

    public init(
        store: any ContactStore, containerIdentifier: String? = nil, transactionAuthor: String? = nil,
        strict: Bool = false
    ) {
        self.store = store
        self.containerIdentifier = containerIdentifier
        self.transactionAuthor = transactionAuthor
        self.strict = strict
    }

    /// Imports every card of a file (memory-map large files: cards are parsed as they are reached).
    ///
    /// - Parameter progress: called after each batch with the number of cards handled so far.
    /// - Throws: in strict mode, the first ``VCardIssue`` or the ``StoreError`` of the first card the store
    ///   refuses (nothing written); ``StoreError`` for a store failure; `CancellationError` when cancelled or
    ///   abandoned (``isAbandoned``).
    ///
    /// The import runs on a ``BackgroundExecutor``: a thread of its own at a lower priority, so that requests served
    /// beside it (a save to another book) keep their latency while it takes every idle cycle.
    public func importCards(_ data: Data, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Summary {
        try await BackgroundExecutor.run { try await importEverything(data, progress: progress) }
    }

    private func importEverything(_ data: Data, progress: @Sendable (Int) -> Void) async throws -> Summary {
        // Checked once here: in a lenient import every card's save would fail on them, and each would be skipped.
        try SaveRequest(transactionAuthor: transactionAuthor).validateShape()
        if let containerIdentifier, try await store.containers(withIdentifiers: [containerIdentifier]).isEmpty {
            throw StoreError(.recordDoesNotExist, "No such container", affected: [containerIdentifier])
        }
        var session = try await ImportSession(importer: self)
        if strict {
            var rereads = 0
            while true {
                do {
                    try await importStrictly(data, &session, progress)
                    break
                } catch let error as StoreError
                    where ImportSession.refusedForChangedStore(error) && rereads < ImportSession.goneGroupRetries
                {
                    // Nothing was written: the whole file is planned again on the store as it is now.
                    rereads += 1
                    session = try await ImportSession(importer: self)
                }
            }
        } else {
            try await importLeniently(data, &session, progress)
        }
        try await session.linkDuplicates()
        var summary = session.summary
        if summary.historyToken.isEmpty { summary.historyToken = try await store.currentHistoryToken() }
        return summary
    }

    private func reader(strict: Bool) -> VCardReader {
        var reader = VCardReader(strict: strict)
        reader.textIsDecoded = textIsDecoded
        return reader
    }

    /// Every card read and planned first, then one commit of every operation: a refusal writes nothing.
    private func importStrictly(
        _ data: Data, _ session: inout ImportSession, _ progress: @Sendable (Int) -> Void
    ) async throws {
        let cards = try reader(strict: true).read(data).cards
        for card in cards { session.learn(card) }
        var operations: [SaveOperation] = []
        var created = 0
        let contacts = cards.filter { $0.kind == .contact }.map(Self.prepared)
        for start in stride(from: 0, to: contacts.count, by: batchSize) {
            try await checkWanted(saved: nil)
            let planned = try await session.plan(Array(contacts[start..<min(start + batchSize, contacts.count)]))
            for card in planned {
                if let problem = card.problem { throw problem }
                if let operation = card.operation { operations.append(operation) }
                session.record(card)
            }
            operations += try await session.membershipOperations(planned, created: &created)
        }
        operations += try await session.linkOperations().map(\.operation)
        try await checkWanted(saved: nil)
        if !operations.isEmpty {
            session.summary.historyToken = try await store.execute(atomically: session.requests(operations))
                .historyToken
        }
        session.groups.commit()
        session.summary.groupsCreated += created
        session.commitLinkCounts()
        session.commitCounts()
        progress(cards.count)
    }

    /// Cards saved a batch at a time as they are read; the links between cards (groups, relations by UID) once
    /// every card is in. With ``readsAhead`` the next batch is read on another background thread while one is
    /// saved.
    private func importLeniently(
        _ data: Data, _ session: inout ImportSession, _ progress: @Sendable (Int) -> Void
    ) async throws {
        var handled = 0
        let contacts = batchSize
        let cards = reader(strict: false).cards(from: data).makeIterator()
        var next = await CardBatch.read(from: cards, contacts: contacts)
        while let current = next {
            try await checkWanted(saved: session.summary)
            guard readsAhead else {
                try await save(current, &session, &handled, progress)
                next = await CardBatch.read(from: current.rest, contacts: contacts)
                continue
            }
            next = try await withThrowingTaskGroup(of: CardBatch?.self) { group in
                // Not the import's own executor: its thread is busy with the save below until it returns.
                group.addTask(executorPreference: globalConcurrentExecutor) {
                    try await current.next(contacts: contacts)
                }
                try await save(current, &session, &handled, progress)
                return try await group.next() ?? nil
            }
        }
        try await checkWanted(saved: session.summary)
        try await session.saveLinks()
        progress(handled)
    }

    /// Throws `CancellationError` when the import was cancelled or abandoned, ``VCardImportStopped`` when its caller
    /// lost access (``checkAccess``).
    /// - Parameter saved: what the import saved so far; `nil` for a strict import, which has saved nothing.
    private func checkWanted(saved: Summary?) async throws {
        if Task.isCancelled || isAbandoned() { throw CancellationError() }
        guard let checkAccess else { return }
        do {
            try await checkAccess()
        } catch {
            throw VCardImportStopped(cause: error, saved: saved ?? Summary())
        }
    }

    /// Learns a batch's cards, notes its unreadable ones and saves its contact cards.
    private func save(
        _ batch: CardBatch, _ session: inout ImportSession, _ handled: inout Int, _ progress: @Sendable (Int) -> Void
    ) async throws {
        var cards: [VCardCard] = []
        for result in batch.results {
            switch result {
            case .success(let card):
                session.learn(card)
                if card.kind == .contact { cards.append(card) }
            case .failure(let issue):
                session.summary.skipped.append(issue)
            }
        }
        handled += batch.results.count
        guard !cards.isEmpty else { return }
        try await session.save(cards)
        progress(handled)
    }

    /// The card's contact as it will be stored: a UID that is no Carnet identifier is kept among the vCard
    /// properties (where a re-import finds it), with the card's other unmapped properties. A card without a UID
    /// gets an identifier derived from its content, so importing the same file again still finds it.
    static func prepared(_ card: VCardCard) -> VCardCard {
        var card = card
        var kept = card.unmappedProperties.filter { !KeptVCardLine.isUID($0) }
        if let uid = card.uid, uid != card.contact.identifier { kept.insert("UID:\(uid)", at: 0) }
        card.contact.vCardProperties = kept.map { LabeledValue(value: $0) }
        if card.uid == nil { card.contact = card.contact.withIdentifier(ContentIdentifier.make(card.contact)) }
        return card
    }
}

/// An import stopped before its end because its caller lost access (``VCardImporter/checkAccess``): the batches it
/// saved before (``saved``) stay; a strict import saved nothing.
public struct VCardImportStopped: Error, Sendable {
    /// What ``VCardImporter/checkAccess`` threw.
    public var cause: any Error
    public var saved: VCardImporter.Summary
}
