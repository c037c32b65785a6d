import CarnetGraphQL
import Synchronization

/// Lets a subscriber read only as many payloads as the schedule allows: a reader that stops reading.
final class ReadGate: Sendable {
    private struct State {
        var permits = 0
        var open = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func allow(_ count: Int) { release { $0.permits += count } }
    func openFully() { release { $0.open = true } }
    func close() {
        state.withLock {
            $0.open = false
            $0.permits = 0
        }
    }

    private func release(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            guard state.open || state.permits > 0, let waiter = state.waiter else { return nil }
            state.waiter = nil
            if !state.open { state.permits -= 1 }
            return waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pass = state.withLock { state -> Bool in
                if state.open { return true }
                if state.permits > 0 {
                    state.permits -= 1
                    return true
                }
                state.waiter = continuation
                return false
            }
            if pass { continuation.resume() }
        }
    }
}

/// Holds a subscriber's payloads while a save of its own is in flight, as the sync contract's client does: a payload
/// that arrives meanwhile is applied only after the save's result and the reads that result calls for.
final class PayloadHold: Sendable {
    private struct State {
        var saves = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func hold() { state.withLock { $0.saves += 1 } }

    /// Ends one save's hold (`all`: every hold, when the client stops).
    func release(all: Bool = false) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.saves = all ? 0 : max(0, state.saves - 1)
            guard state.saves == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pass = state.withLock { state -> Bool in
                guard state.saves > 0 else { return true }
                state.waiter = continuation
                return false
            }
            if pass { continuation.resume() }
        }
    }
}

/// A client fed by the `changeHistory` subscription, reading when its gate lets it; one that excludes its own
/// author applies its own saves' results at once, as the contract allows.
final class SubscriberClient: Sendable {
    struct Progress {
        var state = ReplicaState()
        var token: String?
        var payloads = 0
        /// Payloads taken off the stream, applied or not.
        var taken = 0
        var errors: [String] = []
        var ended = false
        /// The records the payload on its way (taken, not applied yet) names: what a save of this client's aims at,
        /// to race it.
        var pendingContacts: [String] = []
        var pendingGroups: [String] = []
    }

    let name: String
    let author: String
    let excludeOwn: Bool
    let groupChanges: Bool
    /// The book it follows (0: the default one).
    let book: Int
    /// Whether it syncs unified contacts (`unifyResults`) or individual ones.
    let unify: Bool
    let gate = ReadGate()
    let hold = PayloadHold()
    let progress = Mutex(Progress())
    private let reader = Mutex<Task<Void, Never>?>(nil)

    init(name: String, author: String, excludeOwn: Bool, groupChanges: Bool, book: Int = 0, unify: Bool = true) {
        self.book = book
        self.unify = unify
        self.name = name
        self.author = author
        self.excludeOwn = excludeOwn
        self.groupChanges = groupChanges
    }

    /// (Re)subscribes from the last token it applied, as a client does after its stream ended.
    func start(_ world: SyncWorld) async throws {
        let service = world.service
        gate.close()
        let token = progress.withLock {
            $0.ended = false
            return $0.token
        }
        let variables: [String: JSONValue] = [
            "since": token.map(JSONValue.string) ?? .null, "groups": .bool(groupChanges),
            "excluded": .array(excludeOwn ? [.string(author)] : []), "book": world.bookVariable(book),
            "unify": .bool(unify),
        ]
        let operation = try service.operation(
            for: GraphQLRequestBody(query: SyncDocuments.subscribe, variables: variables))
        guard case .stream(let stream) = await service.run(operation, context: world.context) else {
            throw ModelFailure("not a stream")
        }
        let task = Task { [self] in
            var iterator = stream.makeAsyncIterator()
            while true {
                // The payload is taken before the gate: it is on its way while the schedule goes on (the client's
                // own saves among it), and applied only when the gate lets the reader on, as a slow client would.
                guard let response = await iterator.next() else { break }
                let events = (try? JSONParser.parse(response.body))?["data"]?["changeHistory"]?["events"]?.arrayValue
                progress.withLock { progress in
                    progress.taken += 1
                    progress.pendingContacts = (events ?? []).compactMap { $0["contactId"]?.stringValue }
                    progress.pendingGroups = (events ?? []).compactMap { $0["groupId"]?.stringValue }
                }
                await gate.wait()
                await hold.wait()
                let payload: JSONValue
                do { payload = try JSONParser.parse(response.body) } catch {
                    progress.withLock { $0.errors.append("unparsable payload") }
                    break
                }
                progress.withLock { progress in
                    progress.payloads += 1
                    (progress.pendingContacts, progress.pendingGroups) = ([], [])
                    if let errors = payload["errors"] { progress.errors.append(errors.json) }
                    guard let page = payload["data"]?["changeHistory"], page != .null else { return }
                    progress.state.apply(page: page)
                    progress.token = page["token"]?.stringValue
                }
            }
            progress.withLock { $0.ended = true }
        }
        reader.withLock { $0 = task }
    }

    /// Waits until the reader's stream ended (the store closed under it).
    func waitUntilEnded() async {
        let task = reader.withLock { $0 }
        gate.openFully()
        hold.release(all: true)
        await task?.value
    }

    func stop() {
        gate.openFully()
        hold.release(all: true)
        reader.withLock { $0?.cancel() }
    }
}

struct ModelFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
