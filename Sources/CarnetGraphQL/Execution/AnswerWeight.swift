import CarnetStore
import Foundation

/// Which queries build their answers on a thread of their own. An answer is written synchronously once its records
/// are read, and two large ones (pages of contacts with their images and vCards) on two cores held both of the
/// cooperative pool's threads for seconds: every other request, `/healthz` too, waited for them (an outside
/// tester's find). Built on a lane's thread, such an answer is preempted by the kernel for the requests beside it,
/// which keep their share of the cores.
enum AnswerWeight {
    /// Threads at the process's own priority (a lower one made a history page four times slower beside other
    /// processes, for no gain: the kernel already shares the cores between threads), at most 16 at once: past
    /// them a query is built where it runs, as every query was.
    static let lane = BackgroundExecutor.Lane(niceness: 0, maximumThreads: 16)
    /// Large answers built at once, at most: one per core. The others wait their turn holding nothing: started
    /// together, 24 of them each read their records and wrote part of their answers before the response budget
    /// refused most (RSS 10 times the budget, 3 of 24 answered; an outside tester's find).
    static let turns = OperationGate(limit: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `build` on the lane, in its turn; `nil` when the task was cancelled while it waited (`build` did not
    /// run).
    static func build<T: Sendable>(_ build: () async -> T) async -> T? {
        guard await turns.enter() else { return nil }
        defer { turns.leave() }
        return try? await BackgroundExecutor.run(on: lane) { await build() }
    }
    /// Records a query may return (``NodeLimit``) from which it is built on the lane whatever it selects: a full
    /// sync's page, not a history page of 1,000 (a few milliseconds, which a thread of its own made a third slower).
    static let manyNodes = 2_000
    /// Fields whose values may be large: a query that may return several records with one of them is built on
    /// the lane.
    static let largeFields: Set<String> = ["imageData", "thumbnailImageData", "vCard"]

    /// Whether a query with these root fields, that may return `estimatedNodes` records, is built on the lane. The
    /// commonest reads (a contact by id, a page of names) are not: a thread of their own would cost them more than
    /// they take.
    static func isHeavy(_ fields: [FieldPlan], estimatedNodes: Int) -> Bool {
        if estimatedNodes >= manyNodes { return true }
        guard estimatedNodes > 1 else { return false }
        var pending = fields
        while let field = pending.popLast() {
            if largeFields.contains(field.name) { return true }
            pending += field.selection?.allFields ?? []
        }
        return false
    }
}
