import CarnetGraphQL
import CarnetStore

extension GraphQLWebSocketSession {
    /// How often an open subscription's access is checked: with the token cache read at most this old too, access
    /// that ends is noticed within twice this.
    static let accessCheckInterval: Duration = .seconds(1)

    /// Ends a subscription once its caller may no longer follow its book: the token revoked, the principal
    /// disabled, the grant withdrawn or the book deleted. The client gets an `error` message (FORBIDDEN) for the
    /// operation, which ends it.
    func watchAccess(_ id: String, _ generation: Int, _ identity: AccessIdentity, book: String?) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.accessCheckInterval)
            guard !Task.isCancelled else { return }
            if await stillAllowed(identity, book: book) { continue }
            guard isActive(id, generation) else { return }
            // Off the books first, so no `next` follows the error; then the operation's task stops.
            let task = stopOperation(id, generation)
            await send(ServerMessage.error(id, Self.accessEnded))
            task?.cancel()
            return
        }
    }

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

    func stillAllowed(_ identity: AccessIdentity, book: String?) async -> Bool {
        do {
            guard let current = try await dependencies.tokens.recheck(identity, maxAge: Self.accessCheckInterval)
            else { return false }
            guard let book else { return current.book.id == identity.book.id }
            return try await dependencies.tokens.catalog.access(
                principalID: current.principalID, bookID: book, tokenBooks: current.bookIDs) != nil
        } catch {
            // Access that cannot be confirmed is access denied: the client resumes from its last token.
            return false
        }
    }
}
