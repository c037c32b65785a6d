import Foundation

/// Who exists and who may open what: principals, address books, the grants between them, and access tokens.
///
/// Identifiers of principals, books and tokens are random, stable and never reused. Each backend has one type
/// behind this protocol (`SQLiteCatalog` on the embedded default); quotas come from ``configuration``.
public protocol CatalogStore: Sendable {
    /// The quotas in force.
    var configuration: StoreConfiguration { get }

    // MARK: Principals

    /// Creates a principal and its default book.
    func createPrincipal(name: String, kind: Principal.Kind, isAdmin: Bool) async throws -> Principal
    /// Every principal, oldest first.
    func principals() async throws -> [Principal]
    func principal(id: String) async throws -> Principal?
    func principal(named name: String) async throws -> Principal?
    /// Disables (or enables again) a principal: a disabled one's tokens stop working.
    func setDisabled(_ disabled: Bool, principal id: String, at date: Date) async throws
    /// Deletes a principal with its tokens and grants; returns the books it owned, which the caller deletes.
    func deletePrincipal(id: String) async throws -> [AddressBook]

    // MARK: Address books

    /// Creates a book owned by `ownerID`, within its quota.
    func createBook(name: String, ownerID: String) async throws -> AddressBook
    /// The books a principal owns or has been granted, with its access.
    func books(visibleTo principalID: String) async throws -> [VisibleBook]
    /// The principal's access to a book, within a token's books (`nil`: every book); `nil` if none.
    func access(principalID: String, bookID: String, tokenBooks: [String]?) async throws -> (
        book: AddressBook, access: BookAccess
    )?
    func book(id: String) async throws -> AddressBook?
    /// Every book, oldest first.
    func allBooks() async throws -> [AddressBook]
    func renameBook(id: String, to name: String, by principalID: String) async throws -> AddressBook
    /// Removes a book from the catalog; the caller deletes its records (``AddressBookStores/delete(_:)``).
    func deleteBook(id: String, by principalID: String) async throws -> AddressBook

    // MARK: Grants

    func share(bookID: String, with principalID: String, access: BookAccess, by ownerID: String) async throws
    /// Revokes a grant; `false` if there was none.
    @discardableResult func unshare(bookID: String, with principalID: String, by ownerID: String) async throws -> Bool
    func grants(bookID: String, by ownerID: String) async throws -> [(principal: Principal, access: BookAccess)]

    // MARK: Access tokens

    func insertAccessToken(_ token: AccessTokenRecord) async throws
    /// A token (by its public id) with its principal.
    func accessToken(id: String) async throws -> (token: AccessTokenRecord, principal: Principal)?
    /// The tokens of one principal, or of all when `nil`.
    func accessTokens(principalID: String?) async throws -> [AccessTokenRecord]
    /// Revokes a token (of that principal only, when given); `false` if there was no such token.
    @discardableResult func revokeAccessToken(id: String, principalID: String?, at date: Date) async throws -> Bool

    /// Releases the catalog; it must not be used afterwards.
    func close() async throws
}

extension CatalogStore {
    public func createPrincipal(name: String, kind: Principal.Kind = .user) async throws -> Principal {
        try await createPrincipal(name: name, kind: kind, isAdmin: false)
    }

    public func setDisabled(_ disabled: Bool, principal id: String) async throws {
        try await setDisabled(disabled, principal: id, at: Date())
    }

    /// The principal's access to a book; `nil` if none.
    public func access(principalID: String, bookID: String) async throws -> (book: AddressBook, access: BookAccess)? {
        try await access(principalID: principalID, bookID: bookID, tokenBooks: nil)
    }

    /// Every token.
    public func accessTokens() async throws -> [AccessTokenRecord] { try await accessTokens(principalID: nil) }

    @discardableResult
    public func revokeAccessToken(id: String, principalID: String? = nil) async throws -> Bool {
        try await revokeAccessToken(id: id, principalID: principalID, at: Date())
    }
}
