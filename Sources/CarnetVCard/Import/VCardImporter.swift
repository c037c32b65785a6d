import CarnetStore
import Foundation

/// Imports vCard files into a store.
///
/// Cards are read one at a time and saved in batches, one transaction each. A card whose UID names a contact
/// already in the store updates it (only what changed, so importing the same file twice changes nothing);
/// other cards are added. CATEGORIES become groups of the target container. A card that cannot be read, or
/// whose values the store refuses, is skipped with its line and reason; the rest of the file imports. In strict
/// mode any such card refuses the whole file before anything is written.
public struct VCardImporter: Sendable {
    /// What an import did.
    public struct Summary: Sendable {
        public var added = 0
        public var updated = 0
        /// Cards that matched a contact and changed nothing.
        public var unchanged = 0
        /// The cards skipped, with their lines and reasons.
        public var skipped: [VCardIssue] = []
        public var groupsCreated = 0
        /// The history token after the last save (the store's current token when nothing was saved).
        public var historyToken = ""

        public var imported: Int { added + updated + unchanged }
    }

    public let store: CarnetStore
    /// Where new contacts and groups go; `nil` for the default container.
    public var containerIdentifier: String?
    public var transactionAuthor: String?
    public var strict: Bool
    /// Cards per transaction.
    public var batchSize = 1000

    public init(
        store: CarnetStore, containerIdentifier: String? = nil, transactionAuthor: String? = nil, strict: Bool = false
    ) {
        self.store = store
        self.containerIdentifier = containerIdentifier
        self.transactionAuthor = transactionAuthor
        self.strict = strict
    }

    /// Imports every card of a file (memory-map large files: cards are parsed as they are reached).
    ///
    /// - Parameter progress: called after each batch with the number of cards handled so far.
    /// - Throws: in strict mode, the first ``VCardIssue`` (nothing written); ``StoreError`` for a store failure.
    public func importCards(_ data: Data, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary()
        var groups = try await GroupDirectory(store: store, container: containerIdentifier)
        let reader = VCardReader(strict: strict)
        if strict {
            // Read and check everything first: a strict import writes nothing unless every card is good.
            let cards = try reader.read(data).cards.map(Self.prepared)
            for card in cards {
                let problems = CarnetStore.validationProblems(ofNewContact: card.contact)
                if !problems.isEmpty {
                    throw VCardIssue(line: card.line, message: "invalid values: \(problems.joined(separator: ", "))")
                }
            }
            for start in stride(from: 0, to: cards.count, by: batchSize) {
                try await save(Array(cards[start..<min(start + batchSize, cards.count)]), &summary, &groups)
                progress(min(start + batchSize, cards.count))
            }
        } else {
            var batch: [VCardCard] = []
            var handled = 0
            for result in reader.cards(from: data) {
                switch result {
                case .success(let read):
                    let card = Self.prepared(read)
                    let problems = CarnetStore.validationProblems(ofNewContact: card.contact)
                    if problems.isEmpty {
                        batch.append(card)
                    } else {
                        summary.skipped.append(
                            VCardIssue(line: card.line, message: "invalid values: \(problems.joined(separator: ", "))"))
                    }
                case .failure(let issue):
                    summary.skipped.append(issue)
                }
                handled += 1
                if batch.count == batchSize {
                    try await save(batch, &summary, &groups)
                    batch = []
                    progress(handled)
                }
            }
            if !batch.isEmpty { try await save(batch, &summary, &groups) }
            progress(handled)
        }
        if summary.historyToken.isEmpty { summary.historyToken = try await store.currentHistoryToken() }
        return summary
    }

    /// The card's contact as it will be stored: a UID that is no Carnet identifier is kept among the vCard
    /// properties (where a re-import finds it), with the card's other unmapped properties. A card without a UID
    /// gets an identifier derived from its content, so importing the same file again still finds it.
    static func prepared(_ card: VCardCard) -> VCardCard {
        var card = card
        var kept = card.unmappedProperties.filter { !$0.uppercased().hasPrefix("UID:") }
        if let uid = card.uid, uid != card.contact.identifier { kept.insert("UID:\(uid)", at: 0) }
        card.contact.vCardProperties = kept.map { LabeledValue(value: $0) }
        if card.uid == nil { card.contact = card.contact.withIdentifier(ContentIdentifier.make(card.contact)) }
        return card
    }
}
