import CarnetGraphQL
import CarnetStore
import HummingbirdWebSocket
import Logging
import NIOWebSocket

extension GraphQLWebSocketSession {
    /// Runs one operation: `next` then `complete` for queries and mutations, a `next` per event for
    /// subscriptions, `error` for a request that cannot run.
    func execute(_ id: String, _ generation: Int, _ prelude: Prelude, _ authenticated: AccessIdentity) async {
        defer { finish(id, generation) }
        // `connection_init` authenticated the socket once: a token revoked or a principal disabled since then stops
        // here as it does over HTTP (the token cache this reads is at most a second old). Checked in the
        // operation's task, so that the socket's reading (pongs included) never waits on the catalog.
        let identity: AccessIdentity
        let denial: ServerMessage.Denial?
        do {
            let current = try await dependencies.tokens.recheck(authenticated, maxAge: Self.accessCheckInterval)
            (identity, denial) = (current ?? authenticated, current == nil ? .revoked : nil)
        } catch {
            (identity, denial) = (authenticated, .unchecked)
        }
        if let denial {
            let bookID = authenticated.book.id
            if case .subscribed = prelude { Task { await dependencies.books.release(bookID) } }
            switch denial {
            case .revoked: await close(.forbidden, "Forbidden")
            case .unchecked:
                let errors = refusal("Access cannot be checked now; retry later.", ErrorCode(.unavailable))
                await send(ServerMessage.error(id, errors), ifActive: id, generation)
            }
            return
        }
        switch prelude {
        case .invalid(let errors, let started):
            dependencies.metrics.recordOperation(
                name: nil, kind: "unknown", status: "error", duration: ContinuousClock.now - started)
            await send(ServerMessage.error(id, errors), ifActive: id, generation)
        case .unavailable(let deleted):
            await sendUnavailable(id, generation, identity, deleted: deleted)
        case .tooManySubscriptions:
            let max = dependencies.subscriptionQuota.limit
            let message = "This principal has \(max) subscriptions open already; complete one first."
            let errors = refusal(message, .tooManyOperations, extensions: ["maxSubscriptionsPerPrincipal": .int(max)])
            await send(ServerMessage.error(id, errors), ifActive: id, generation)
        case .subscribed(let operation, let outcome, let context, let started, let lease, let reservation):
            // The prelude acquired the book, and the subscription's place in its principal's quota.
            defer { Task { await dependencies.books.release(identity.book.id) } }
            defer { withExtendedLifetime(lease) {} }
            await deliver(id, generation, operation, outcome, context, identity, since: started, reservation)
        case .parsed(let operation, let started):
            // Its turn first: a client that reads no answers then holds a few of them, not one per operation.
            guard await requestGate.enter() else { return }
            defer { requestGate.leave() }
            guard isActive(id, generation) else { return }
            let store: any ContactStore
            do {
                store = try await dependencies.books.acquire(identity.book)
            } catch {
                return await sendUnavailable(id, generation, identity, deleted: Self.isDeletedBook(error))
            }
            defer { Task { await dependencies.books.release(identity.book.id) } }
            var context = identity.graphQLContext(
                store: store, tokens: dependencies.tokens, books: dependencies.books)
            // A query's answer counts in the budget from its first bytes, as over HTTP.
            let reservation = dependencies.responseBudget.reservation()
            context.admitResponseBytes = { reservation.resize(to: $0) }
            let outcome = await dependencies.service.run(operation, context: context)
            await deliver(id, generation, operation, outcome, context, identity, since: started, reservation)
        }
    }

    /// The caller's book could not be opened. Deleted, and the token asked afresh opens nothing else, the token is
    /// over as a revoked one is: the socket closes with 4403, as it would at its next check. A token that still
    /// means another of its books gets FORBIDDEN for this operation. Otherwise the store failed: the client may
    /// retry, with the code an HTTP request gets (STORAGE_FAILURE).
    private func sendUnavailable(_ id: String, _ generation: Int, _ identity: AccessIdentity, deleted: Bool) async {
        if deleted {
            guard (try? await dependencies.tokens.recheck(identity, maxAge: .zero)) != nil else {
                return await close(.forbidden, "Forbidden")
            }
            let errors = refusal("This address book was deleted.", .forbidden)
            return await send(ServerMessage.error(id, errors), ifActive: id, generation)
        }
        let errors = refusal("The address book cannot be opened now.", ErrorCode(.storageFailure))
        await send(ServerMessage.error(id, errors), ifActive: id, generation)
    }

    /// The `error` payload of an operation the socket does not run.
    func refusal(_ message: String, _ code: ErrorCode, extensions: [String: JSONValue] = [:]) -> [UInt8] {
        GraphQLRequestError(
            .operationNotAllowed, [ResponseError(message: message, code: code, extensions: extensions)]
        ).errorsJSON
    }

    /// Sends an operation's outcome: its response, or its subscription's payloads until the stream ends.
    private func deliver(
        _ id: String, _ generation: Int, _ operation: GraphQLService.Operation, _ outcome: GraphQLService.Outcome,
        _ context: GraphQLRequestContext, _ identity: AccessIdentity, since start: ContinuousClock.Instant,
        _ reservation: ResponseMemoryBudget.Reservation
    ) async {
        let service = dependencies.service
        switch outcome {
        case .single(let response):
            dependencies.metrics.recordOperation(
                name: response.operationName, kind: operation.kind.rawValue,
                status: response.hasErrors ? "error" : "ok", duration: ContinuousClock.now - start)
            if let errors = response.requestErrors {
                return await send(ServerMessage.error(id, errors), ifActive: id, generation)
            }
            let message = ServerMessage.next(id, response.body)
            // A client that never reads holds its socket's answers in NIO's buffer; many sockets, many answers:
            // within the server's budget, as over HTTP.
            guard !response.wasCutShort, reservation.resize(to: message.utf8.count) || response.committed else {
                let busy = refusal(
                    "The server holds as many responses, being built or not yet read, as it may. Try again shortly.",
                    .serverBusy,
                    extensions: ["retryAfter": .int(1)])
                return await send(ServerMessage.error(id, busy), ifActive: id, generation)
            }
            await send(message, ifActive: id, generation, holding: reservation)
        case .stream(let stream):
            markSubscription(id, generation)
            let book = service.subscriptionBookID(operation, context: context)
            let watch = Task { await watchAccess(id, generation, identity, book: book) }
            defer { watch.cancel() }
            let registration = registerSubscription(id, generation, identity, book: book)
            defer { dependencies.tokens.subscriptions.remove(registration) }
            dependencies.metrics.subscriptionsOpen.increment()
            defer { dependencies.metrics.subscriptionsOpen.decrement() }
            for await response in stream {
                guard !Task.isCancelled else { break }
                await send(ServerMessage.next(id, response.body), ifActive: id, generation)
                // The socket has taken it (a write waits while the socket's buffer is full): the next payload
                // starts from nothing.
                _ = reservation.resize(to: 0)
                if let noticed = response.changeNoticedAt {
                    dependencies.metrics.subscriptionDelivery.recordNanoseconds(
                        (ContinuousClock.now - noticed).nanoseconds)
                }
            }
            dependencies.metrics.recordOperation(
                name: operation.name, kind: "subscription", status: "ok",
                duration: ContinuousClock.now - start)
            // A feed that ends by itself ended with its book (deleted, or access withdrawn as it closed): that is
            // the documented FORBIDDEN error, not a `complete` the client would take for a normal end. The book is
            // asked of the catalog by its id, root fields' too: the cached identity outlives a deletion here by up
            // to the cache's life.
            if !Task.isCancelled {
                switch await checkAccess(identity, book: book ?? identity.book.id) {
                case .allowed: break
                case .ended: return await send(ServerMessage.error(id, Self.accessEnded), ifActive: id, generation)
                case .unconfirmed:
                    return await send(ServerMessage.error(id, Self.accessUnconfirmed), ifActive: id, generation)
                }
            }
        }
        if !Task.isCancelled { await send(ServerMessage.complete(id), ifActive: id, generation) }
    }

    /// Ends the socket gracefully: no new operations, subscriptions end, queries and mutations in flight finish
    /// (up to `grace`), then close with 1001 (going away).
    func drain(grace: Duration) async {
        let tasks = markDraining()
        for (task, isSubscription) in tasks where isSubscription { task.cancel() }
        let waiting = Task { for (task, _) in tasks { await task.value } }
        // One grace period for both: the operations, then the close frame (given at least a second).
        let end = ContinuousClock.now + grace
        let deadline = Task {
            try? await Task.sleep(until: end)
            waiting.cancel()
            for (task, _) in tasks { task.cancel() }
        }
        await waiting.value
        deadline.cancel()
        // The close frame waits behind what the socket has not sent yet: a client that stopped reading would hold
        // it, and the shutdown, for ever. Past `grace` it is given up; the connection is closed when the server's
        // own shutdown limit comes (``QuiesceDeadline``).
        let closing = Task { await close(code: .goingAway, "Server shutting down") }
        let giveUp = Task {
            try? await Task.sleep(until: max(end, .now + .seconds(1)))
            closing.cancel()
        }
        await closing.value
        giveUp.cancel()
    }

    func close(_ code: CloseCode, _ reason: String) async {
        await close(code: .unknown(code.rawValue), reason)
    }

    func close(code: WebSocketErrorCode, _ reason: String) async {
        guard markClosed() else { return }
        logger.debug("Closing WebSocket", metadata: ["ws.close_code": "\(code)"])
        try? await outbound.close(code, reason: CloseReason.fitted(reason))
    }

    /// Writes `text`; an answer's `reservation` is held until its bytes have left the process (``OutboundDrain``).
    func send(_ text: String, holding reservation: ResponseMemoryBudget.Reservation? = nil) async {
        do {
            try await outbound.write(.text(text))
            if let reservation {
                // The write returns once the frame is in the pipeline, not once the socket took it: 10 sockets that
                // read nothing held 1.2 GB of answers the budget had been given back (an outside tester's find).
                let channel = channel
                Task { @Sendable in
                    await OutboundDrain.wait(channel)
                    withExtendedLifetime(reservation) {}
                }
            }
        } catch {
            logger.debug("WebSocket write failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// Sends unless the client completed the operation meanwhile (its results are then dropped).
    func send(
        _ text: String, ifActive id: String, _ generation: Int,
        holding reservation: ResponseMemoryBudget.Reservation? = nil
    ) async {
        guard isActive(id, generation) else { return }
        await send(text, holding: reservation)
    }
}

extension ServerMessage {
    /// Why an operation of an authenticated socket does not run.
    enum Denial { case revoked, unchecked }
}
