import Foundation

/// Someone, or something, that holds tokens and owns address books: a person or a service account.
public struct Principal: Sendable, Hashable, Identifiable {
    /// What kind of principal this is; a service account is a program syncing on someone's behalf.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case user, service
    }

    /// Stable and never reused.
    public let id: String
    /// Unique among principals, for people and the CLI (`alice`, `backup-bot`).
    public var name: String
    public var kind: Kind
    /// Admins manage principals; being one grants no access to other principals' books.
    public var isAdmin: Bool
    public var created: Date
    /// When the principal was disabled: its tokens authenticate nothing from then on.
    public var disabled: Date?
    /// The book the root GraphQL fields mean for this principal's tokens.
    public var defaultBookID: String?

    public init(
        id: String, name: String, kind: Kind = .user, isAdmin: Bool = false, created: Date = Date(),
        disabled: Date? = nil, defaultBookID: String? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.isAdmin = isAdmin
        self.created = created
        self.disabled = disabled
        self.defaultBookID = defaultBookID
    }
}
