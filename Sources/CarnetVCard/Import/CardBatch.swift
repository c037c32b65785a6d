import CarnetStore

/// The next cards of a file up to a batch's worth of contact cards, and where reading stopped: what a lenient
/// import saves in one transaction. Reading is pure, so the next batch can be read on another thread while one is
/// saved.
struct CardBatch: Sendable {
    /// The cards and unreadable cards, in file order; the last contact card (when the batch is full) ends it.
    var results: [Result<VCardCard, VCardIssue>] = []
    /// Where the next batch starts.
    var rest: VCardSequence.Iterator

    /// Reads up to `contacts` contact cards, with the group cards and unreadable ones among them; `nil` at the end
    /// of the file. Off a background thread (the cooperative pool) it yields every 64 cards, so that requests
    /// queued behind it run.
    static func read(from start: VCardSequence.Iterator, contacts: Int) async -> CardBatch? {
        var batch = CardBatch(rest: start)
        var contactCount = 0
        let yields = !BackgroundExecutor.runsOnCurrentThread
        while contactCount < contacts, var result = batch.rest.next() {
            if case .success(let card) = result, card.kind == .contact {
                contactCount += 1
                // What the save would work out first (its identifier from its content), here off its thread.
                result = .success(VCardImporter.prepared(card))
            }
            batch.results.append(result)
            if yields && batch.results.count % 64 == 0 { await Task.yield() }
        }
        return batch.results.isEmpty ? nil : batch
    }

    /// The batch after this one, read on a background thread of its own (or where called, when none is free).
    func next(contacts: Int) async throws -> CardBatch? {
        let rest = self.rest
        return try await BackgroundExecutor.run { await Self.read(from: rest, contacts: contacts) }
    }
}
