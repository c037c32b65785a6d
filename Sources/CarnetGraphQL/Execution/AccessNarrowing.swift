/// Access that a management mutation of this process took away. Transports end at once what it ends (open
/// subscriptions), rather than at their next periodic check of the catalog, which a grant withdrawn and given back
/// between two checks escaped (an outside tester's find). Changes made by another process (the CLI, another
/// instance) are still found by those checks.
public enum AccessNarrowing: Sendable, Hashable {
    case tokenRevoked(tokenID: String)
    /// Disabled or deleted.
    case principalDisabled(principalID: String)
    case grantWithdrawn(bookID: String, principalID: String)
    case bookDeleted(bookID: String)

    /// Whether it ends what a token of `principalID` (`tokenID`) may read of `bookID`.
    public func ends(tokenID: String, principalID: String, bookID: String) -> Bool {
        switch self {
        case .tokenRevoked(let token): token == tokenID
        case .principalDisabled(let principal): principal == principalID
        case .grantWithdrawn(let book, let principal): book == bookID && principal == principalID
        case .bookDeleted(let book): book == bookID
        }
    }
}
