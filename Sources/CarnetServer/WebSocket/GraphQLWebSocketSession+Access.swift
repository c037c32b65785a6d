import CarnetGraphQL
import CarnetStore

extension GraphQLWebSocketSession {
    /// How often an open subscription's access is checked: with the token cache read at most this old too, access
    /// that ends is noticed within twice this.
    static let accessCheckInterval: Duration = .seconds(1)

    /// Ends a subscription once its caller may no longer follow its book: the token revoked, the principal
    /// disabled, the grant withdrawn or the book deleted. The client gets an `error` message (FORBIDDEN) for the
    /// operation, which ends it. A check the catalog cannot answer (its database unreachable) ends nothing: the
    /// next one asks again, and the feed, which reads the same database, delivers nothing meanwhile. Ended then,
    /// subscriptions that had lost no access got FORBIDDEN, which tells a client to stop (an outside tester's find).
    func watchAccess(_ id: String, _ generation: Int, _ identity: AccessIdentity, book: String?) async {
        var unconfirmed = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.accessCheckInterval)
            guard !Task.isCancelled else { return }
            let ending: [UInt8]
            switch await checkAccess(identity, book: book) {
            case .allowed:
                unconfirmed = 0
                continue
            case .unconfirmed:
                // Not for ever: the feed may read another database than the catalog (SQLite's catalog is a file
                // of its own), and would go on delivering to a caller whose access nobody could check.
                unconfirmed += 1
                guard unconfirmed >= Self.unconfirmedChecks else { continue }
                ending = Self.accessUnconfirmed
            case .ended:
                ending = Self.accessEnded
            }
            return await endSubscription(id, generation, ending)
        }
    }

    /// Ends a subscription with an `error` message, once: off the books first, so no `next` follows the error;
    /// then the operation's task stops.
    func endSubscription(_ id: String, _ generation: Int, _ ending: [UInt8]) async {
        guard isActive(id, generation) else { return }
        let task = stopOperation(id, generation)
        await send(ServerMessage.error(id, ending))
        task?.cancel()
    }

    /// Registers a subscription with the process's open ones (``OpenSubscriptions``), so that access a
    /// management mutation takes away ends it at once; pass the key back to `remove` when it ends.
    func registerSubscription(_ id: String, _ generation: Int, _ identity: AccessIdentity, book: String?) -> Int {
        dependencies.tokens.subscriptions.add(
            OpenSubscriptions.Entry(
                tokenID: identity.tokenID, principalID: identity.principalID, bookID: book ?? identity.book.id
            ) { [self] in
                // Off the books before the mutation that ended it answers, so no `next` of a later commit follows.
                guard isActive(id, generation) else { return }
                let task = stopOperation(id, generation)
                Task {
                    await send(ServerMessage.error(id, Self.accessEnded))
                    task?.cancel()
                }
            })
    }

    /// Access checks in a row that the catalog cannot answer before a subscription ends (UNAVAILABLE): half a
    /// minute, about the time a database takes to restart or fail over.
    static let unconfirmedChecks = 30

    /// The `error` payload that ends a subscription whose access ended.
    static var accessEnded: [UInt8] {
        GraphQLRequestError(
            .operationNotAllowed,
            [
                ResponseError(
                    message: "Access to this address book has ended; the subscription is over.", code: .forbidden)
            ]
        ).errorsJSON
    }

    /// The `error` payload that ends a subscription whose feed ended while its access could not be checked: the
    /// client resubscribes from its last token.
    static var accessUnconfirmed: [UInt8] {
        GraphQLRequestError(
            .operationNotAllowed,
            [
                ResponseError(
                    message: "Access to this address book cannot be checked now; resubscribe from your last token.",
                    code: ErrorCode(.unavailable))
            ]
        ).errorsJSON
    }

    /// What the catalog says of a subscription's access now.
    enum AccessCheck { case allowed, ended, unconfirmed }

    func checkAccess(_ identity: AccessIdentity, book: String?) async -> AccessCheck {
        do {
            guard let current = try await dependencies.tokens.recheck(identity, maxAge: Self.accessCheckInterval)
            else { return .ended }
            guard let book else { return current.book.id == identity.book.id ? .allowed : .ended }
            let access = try await dependencies.tokens.catalog.access(
                principalID: current.principalID, bookID: book, tokenBooks: current.bookIDs)
            return access != nil ? .allowed : .ended
        } catch {
            return .unconfirmed
        }
    }
}
