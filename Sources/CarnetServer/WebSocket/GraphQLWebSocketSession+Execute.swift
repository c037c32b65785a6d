import CarnetGraphQL
import CarnetStore
import HummingbirdWebSocket
import Logging
import NIOWebSocket

extension GraphQLWebSocketSession {
    /// Runs one operation: `next` then `complete` for queries and mutations, a `next` per event for
    /// subscriptions, `error` for a request that cannot run.
    func execute(_ id: String, _ generation: Int, _ payload: [String: JSONValue], _ identity: AccessIdentity) async {
        let start = ContinuousClock.now
        let service = dependencies.service
        defer { finish(id, generation) }
        let operation: GraphQLService.Operation
        do {
            operation = try service.operation(for: GraphQLRequestBody(json: .object(payload)))
        } catch {
            dependencies.metrics.recordOperation(
                name: nil, kind: "unknown", status: "error",
                duration: ContinuousClock.now - start)
            return await send(ServerMessage.error(id, error.errorsJSON), ifActive: id, generation)
        }
        let store: any ContactStore
        do {
            store = try await dependencies.books.acquire(identity.book)
        } catch {
            let refusal = GraphQLRequestError(
                .operationNotAllowed,
                [ResponseError(message: "The address book cannot be opened now.", code: .internalServerError)])
            return await send(ServerMessage.error(id, refusal.errorsJSON), ifActive: id, generation)
        }
        defer { Task { await dependencies.books.release(identity.book.id) } }
        let context = identity.graphQLContext(store: store, tokens: dependencies.tokens, books: dependencies.books)
        switch await service.run(operation, context: context) {
        case .single(let response):
            dependencies.metrics.recordOperation(
                name: response.operationName, kind: operation.kind.rawValue,
                status: response.hasErrors ? "error" : "ok", duration: ContinuousClock.now - start)
            if let errors = response.requestErrors {
                return await send(ServerMessage.error(id, errors), ifActive: id, generation)
            }
            await send(ServerMessage.next(id, response.body), ifActive: id, generation)
        case .stream(let stream):
            markSubscription(id, generation)
            let book = service.subscriptionBookID(operation, context: context)
            let watch = Task { await watchAccess(id, generation, identity, book: book) }
            defer { watch.cancel() }
            dependencies.metrics.subscriptionsOpen.increment()
            defer { dependencies.metrics.subscriptionsOpen.decrement() }
            for await response in stream {
                guard !Task.isCancelled else { break }
                await send(ServerMessage.next(id, response.body), ifActive: id, generation)
            }
            dependencies.metrics.recordOperation(
                name: operation.name, kind: "subscription", status: "ok",
                duration: ContinuousClock.now - start)
        }
        if !Task.isCancelled { await send(ServerMessage.complete(id), ifActive: id, generation) }
    }

    /// Ends the socket gracefully: no new operations, subscriptions end, queries and mutations in flight finish
    /// (up to `grace`), then close with 1001 (going away).
    func drain(grace: Duration) async {
        let tasks = markDraining()
        for (task, isSubscription) in tasks where isSubscription { task.cancel() }
        let waiting = Task { for (task, _) in tasks { await task.value } }
        let deadline = Task {
            try? await Task.sleep(for: grace)
            waiting.cancel()
            for (task, _) in tasks { task.cancel() }
        }
        await waiting.value
        deadline.cancel()
        await close(code: .goingAway, "Server shutting down")
    }

    func close(_ code: CloseCode, _ reason: String) async {
        await close(code: .unknown(code.rawValue), reason)
    }

    func close(code: WebSocketErrorCode, _ reason: String) async {
        guard markClosed() else { return }
        logger.debug("Closing WebSocket", metadata: ["ws.close_code": "\(code)"])
        try? await outbound.close(code, reason: reason)
    }

    func send(_ text: String) async {
        do {
            try await outbound.write(.text(text))
        } catch {
            logger.debug("WebSocket write failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// Sends unless the client completed the operation meanwhile (its results are then dropped).
    func send(_ text: String, ifActive id: String, _ generation: Int) async {
        guard isActive(id, generation) else { return }
        await send(text)
    }
}
