import CarnetGraphQL
import CarnetStore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One graphql-transport-ws connection: the handshake, authentication in `connection_init`, operations by id,
/// and the close codes the protocol defines.
final class GraphQLWebSocketSession: Sendable {
    struct Dependencies: Sendable {
        let service: GraphQLService
        let tokens: AccessTokens
        /// Where callers' books are opened; a subscription holds its book open for its lifetime.
        let books: any AddressBookStores
        let metrics: ServerMetrics
        let maxMessageBytes: Int
        /// Operations running at once on one socket, at most: each subscription holds a task, a book and a place
        /// in every commit's fan-out, so a socket cannot gather them without bound.
        let maxOperations: Int
        /// Queries and mutations of one socket that run (and hold their answers) at once; the others wait.
        let maxRunningRequests: Int
        let initTimeout: Duration
        /// The same per-token limit as HTTP requests: each operation a socket starts counts as one request.
        let limiter: RateLimiter
        /// The same budget as HTTP answers: a query's answer counts until the socket has taken it.
        let responseBudget: ResponseMemoryBudget
        /// Subscriptions open at once per principal, across its sockets (one for the whole server).
        let subscriptionQuota: SubscriptionQuota
    }

    private struct Operation {
        var generation: Int
        var task: Task<Void, Never>?
        var isSubscription = false
        /// A subscription's place in its principal's quota, given back as soon as the operation is removed: its
        /// task ends a little later, and a client that completed it may subscribe again on another socket at once.
        var lease: SubscriptionQuota.Lease?

        /// Stops it: cancels its task and gives back its place.
        func stop() {
            task?.cancel()
            lease?.release()
        }
    }

    private struct State {
        var initReceived = false
        var identity: AccessIdentity?
        var operations: [String: Operation] = [:]
        var generation = 0
        var draining = false
        var closed = false
    }

    let dependencies: Dependencies
    let outbound: WebSocketOutboundWriter
    let logger: Logger
    /// The caller authenticated by the upgrade request's `Authorization` header, if any.
    let upgradeIdentity: AccessIdentity?
    private let state = Mutex(State())
    /// The connection, whose ``WriteStallTimeout`` tells when an answer's bytes have left the process.
    let channel: any Channel
    /// Where a socket's queries and mutations wait their turn (``Dependencies/maxRunningRequests``).
    let requestGate: OperationGate

    init(
        _ dependencies: Dependencies, outbound: WebSocketOutboundWriter, channel: any Channel, logger: Logger,
        upgradeIdentity: AccessIdentity?
    ) {
        self.dependencies = dependencies
        self.channel = channel
        self.outbound = outbound
        self.logger = logger
        self.upgradeIdentity = upgradeIdentity
        requestGate = OperationGate(limit: dependencies.maxRunningRequests)
    }

    /// Reads messages until the client or the server closes the socket.
    func run(_ inbound: WebSocketInboundStream) async throws {
        let timeout = dependencies.initTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, !Task.isCancelled, !self.state.withLock({ $0.initReceived }) else { return }
            await self.close(.initialisationTimeout, "Connection initialisation timeout")
        }
        defer {
            timer.cancel()
            cancelAll()
        }
        var messages = inbound.messages(maxSize: dependencies.maxMessageBytes).makeAsyncIterator()
        while let message = try await messages.next() {
            guard case .text(let text) = message else {
                return await close(.badRequest, "Binary messages are not part of graphql-transport-ws")
            }
            let parsed: ClientMessage
            do {
                parsed = try ClientMessage(text: text, maxNesting: dependencies.service.limits.maxJSONNesting)
            } catch {
                return await close(.badRequest, error.reason)
            }
            guard await receive(parsed) else { return }
        }
    }

    /// Handles one message. - Returns: `false` when the socket was closed.
    private func receive(_ message: ClientMessage) async -> Bool {
        switch message {
        case .connectionInit(let payload):
            let first = state.withLock { state in
                defer { state.initReceived = true }
                return !state.initReceived
            }
            guard first else {
                await close(.tooManyInitialisationRequests, "Too many initialisation requests")
                return false
            }
            let offered: AccessIdentity?
            do {
                offered = try await authenticate(payload)
            } catch {
                // Not the token's fault: the client may connect again, while 4403 would tell it to stop.
                await close(.internalServerError, "The token could not be checked; connect again")
                return false
            }
            guard let identity = offered else {
                await close(.forbidden, "Forbidden")
                return false
            }
            state.withLock { $0.identity = identity }
            await send(ServerMessage.connectionAck)
        case .ping:
            await send(ServerMessage.pong)
        case .pong:
            break
        case .subscribe(let id, let payload):
            return await subscribe(id, payload)
        case .complete(let id):
            state.withLock { $0.operations.removeValue(forKey: id) }?.stop()
        }
        return true
    }

    private func subscribe(_ id: String, _ payload: [String: JSONValue]) async -> Bool {
        enum Verdict {
            case start(AccessIdentity, Int)
            case unauthorized, duplicate, draining, tooMany
            case limited(Int)
        }
        let verdict: Verdict = state.withLock { state in
            guard let identity = state.identity else { return .unauthorized }
            guard state.operations[id] == nil else { return .duplicate }
            guard !state.draining else { return .draining }
            guard state.operations.count < dependencies.maxOperations else { return .tooMany }
            if let wait = dependencies.limiter.acquire(identity.tokenID) { return .limited(wait) }
            state.generation += 1
            state.operations[id] = Operation(generation: state.generation)
            return .start(identity, state.generation)
        }
        switch verdict {
        case .unauthorized:
            await close(.unauthorized, "Unauthorized")
            return false
        case .duplicate:
            await close(.subscriberAlreadyExists, "Subscriber for \(id) already exists")
            return false
        case .draining:
            await send(ServerMessage.error(id, refusal("The server is shutting down.", .shuttingDown)))
        case .tooMany:
            let max = dependencies.maxOperations
            let message = "This socket runs \(max) operations already; complete one first."
            await send(
                ServerMessage.error(id, refusal(message, .tooManyOperations, extensions: ["maxOperations": .int(max)])))
        case .limited(let wait):
            let message = "Too many requests for this token; retry after \(wait) s."
            await send(ServerMessage.error(id, refusal(message, .rateLimited, extensions: ["retryAfter": .int(wait)])))
        case .start(let identity, let generation):
            // Parsed here, and a subscription listens before the next message is read: a save sent after it on
            // this socket then always reaches it. Nothing here waits for another task to start, or writes.
            let prelude = await prelude(payload, identity)
            let task = Task { await self.execute(id, generation, prelude, identity) }
            // Known as a subscription from the start: a shutdown that came before its task began delivering took
            // it for a query, waited for it to finish, and so waited out the whole grace period.
            let lease: SubscriptionQuota.Lease? =
                if case .subscribed(_, _, _, _, let lease, _) = prelude { lease } else { nil }
            let stale = state.withLock { state in
                guard state.operations[id]?.generation == generation else { return true }
                state.operations[id]?.task = task
                state.operations[id]?.isSubscription = lease != nil
                state.operations[id]?.lease = lease
                return false
            }
            // Removed meanwhile (the socket closed while the prelude ran): nothing would stop it later.
            if stale {
                task.cancel()
                lease?.release()
            }
        }
        return true
    }
}

// State transitions, kept beside `State`, which is private to this file.
extension GraphQLWebSocketSession {
    func isActive(_ id: String, _ generation: Int) -> Bool {
        state.withLock { !$0.closed && $0.operations[id]?.generation == generation }
    }

    func finish(_ id: String, _ generation: Int) {
        state.withLock { state in
            if state.operations[id]?.generation == generation { state.operations[id] = nil }
        }
    }

    /// Removes an operation (later messages for it are dropped), gives back its place in the quota, and returns
    /// its task to cancel.
    func stopOperation(_ id: String, _ generation: Int) -> Task<Void, Never>? {
        let operation = state.withLock { state in
            state.operations[id]?.generation == generation ? state.operations.removeValue(forKey: id) : nil
        }
        operation?.lease?.release()
        return operation?.task
    }

    func markSubscription(_ id: String, _ generation: Int) {
        state.withLock { state in
            if state.operations[id]?.generation == generation { state.operations[id]?.isSubscription = true }
        }
    }

    /// Stops new operations. - Returns: the running ones, and whether each is a subscription.
    func markDraining() -> [(Task<Void, Never>, Bool)] {
        state.withLock { state in
            state.draining = true
            return state.operations.values.compactMap { operation in
                operation.task.map { ($0, operation.isSubscription) }
            }
        }
    }

    /// - Returns: `false` if the socket was already closing.
    func markClosed() -> Bool {
        state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
    }

    func cancelAll() {
        let operations = state.withLock { state in
            defer { state.operations.removeAll() }
            return Array(state.operations.values)
        }
        for operation in operations { operation.stop() }
    }
}
