import Foundation

/// A stored access token: who it is for, what it may do, and the hash of its secret (never the secret itself).
///
/// The store keeps these for the network service; creating the secret, hashing it and checking it are the
/// service's business, so the store stays free of cryptography.
public struct AccessTokenRecord: Sendable, Hashable {
    /// Public identifier, part of the token text, used to find the record.
    public var id: String
    /// What the token is for, for people (`admin`, `sync-app`).
    public var name: String
    /// A hash of the token's secret.
    public var secretHash: [UInt8]
    /// Scope names (`read`, `write`).
    public var scopes: [String]
    /// The transaction authors this token may save as; empty means any. The first is the default.
    public var authors: [String]
    public var created: Date
    /// When the token was revoked; a revoked token authenticates nothing.
    public var revoked: Date?
    /// The principal the token acts for (in a ``Catalog``); empty in a single store's own token table.
    public var principalID: String
    /// The books the token may open, among those its principal may; `nil` means all of them.
    public var bookIDs: [String]?

    public init(
        id: String, name: String, secretHash: [UInt8], scopes: [String], authors: [String], created: Date = Date(),
        revoked: Date? = nil, principalID: String = "", bookIDs: [String]? = nil
    ) {
        self.principalID = principalID
        self.bookIDs = bookIDs
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.scopes = scopes
        self.authors = authors
        self.created = created
        self.revoked = revoked
    }
}

extension AccessTokenRecord {
    /// A token's id is a line of text (random, or a migrated token's), its name follows the rule of principals' and
    /// books' names (at most 200 characters, no control characters; blank allowed, as tokens from before had), its
    /// authors that of transaction authors: the same on every backend, and nothing a backend cannot store.
    package func validate() throws {
        guard Validation.required(id, limit: StoreLimits.identifierBytes) else {
            throw StoreError(.validationFailed, "Invalid token id", keyPaths: ["id"])
        }
        guard name.unicodeScalars.count <= 200,
            !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw StoreError(
                .validationFailed, "A token's name is at most 200 characters without control characters.",
                keyPaths: ["name"])
        }
        // A token without a scope could do nothing at all: asking for one is a mistake worth saying.
        guard !scopes.isEmpty else {
            throw StoreError(.validationFailed, "A token needs at least one scope.", keyPaths: ["scopes"])
        }
        // Likewise a token limited to no book (`nil` is every book of its principal's): it was made, and refused
        // as "invalid or revoked" on every request (an outside tester's find).
        guard bookIDs.map({ !$0.isEmpty }) ?? true else {
            throw StoreError(
                .validationFailed, "A token limited to books needs at least one book.", keyPaths: ["addressBookIds"])
        }
        guard authors.allSatisfy({ Validation.text($0, limit: StoreLimits.labelBytes) }) else {
            throw StoreError(.validationFailed, "Invalid transaction author", keyPaths: ["authors"])
        }
    }
}
