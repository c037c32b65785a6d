import CarnetGraphQL
import CarnetStore
import Crypto
import Foundation
import Synchronization

/// Creates and checks bearer tokens, kept in the data folder's ``Catalog``.
///
/// A token reads `carnet_<id>_<secret>`: the id finds the record, the secret is 256 random bits of which only a
/// SHA-256 hash is stored, compared in constant time. Checked tokens are cached for ``cacheLifetime`` so a request
/// costs no database read; a revocation (also by another process) takes effect within that time.
public final class AccessTokens: Sendable {
    let catalog: any CatalogStore
    /// Whom tokens created without a principal belong to: the admin.
    let defaultPrincipalID: String
    let cacheLifetime: Duration
    /// Per token id: its record and the identity it grants (built once, not per request), or `nil` when unknown.
    private let cache = Mutex<[String: (entry: Entry?, fetched: ContinuousClock.Instant)]>([:])
    /// Lookups of the catalog under way, by token id: checks of one token at once share one. Every subscription
    /// checks its token each second; with the catalog slow, each check missed the cache and made its own lookup,
    /// which made it slower still (an outside tester's 10,000 idle subscriptions on 200 tokens held both cores).
    private let lookups = Mutex<[String: Task<Entry?, any Error>]>([:])
    /// The subscriptions open in this process, ended at once by what ``narrowed(_:)`` is told.
    let subscriptions = OpenSubscriptions()

    /// A class, so that reading it from the cache retains one reference rather than copying the record.
    private final class Entry: Sendable {
        let record: AccessTokenRecord
        let identity: AccessIdentity

        init(record: AccessTokenRecord, identity: AccessIdentity) {
            self.record = record
            self.identity = identity
        }
    }

    public init(catalog: any CatalogStore, defaultPrincipalID: String, cacheLifetime: Duration = .seconds(2)) {
        self.catalog = catalog
        self.defaultPrincipalID = defaultPrincipalID
        self.cacheLifetime = cacheLifetime
    }

    /// A new token: the text (shown once, never stored) and its record.
    /// - Parameters:
    ///   - principalID: whose token it is; the admin's by default.
    ///   - bookIDs: the books it may open, among its principal's; `nil` for all of them.
    public func create(
        name: String, scopes: Set<AccessScope>, authors: [String] = [], principalID: String? = nil,
        bookIDs: [String]? = nil
    ) async throws -> (token: String, record: AccessTokenRecord) {
        // Not starting with "-": the CLI would read `carnet token revoke -x…` as an option (an outside tester's find).
        var id = Self.randomText(bytes: 9)
        while id.hasPrefix("-") { id = Self.randomText(bytes: 9) }
        let secret = Self.randomText(bytes: 32)
        let record = AccessTokenRecord(
            id: id, name: name, secretHash: Array(SHA256.hash(data: Data(secret.utf8))),
            scopes: AccessScope.allCases.filter(scopes.contains).map(\.rawValue), authors: authors,
            principalID: principalID ?? defaultPrincipalID, bookIDs: bookIDs)
        try await catalog.insertAccessToken(record)
        return ("carnet_\(id)_\(secret)", record)
    }

    /// The identity behind a token, or `nil` for a malformed, unknown or revoked one.
    public func verify(_ token: String) async throws -> AccessIdentity? {
        // Fixed layout: "carnet_" + 12-character id + "_" + 43-character secret (both URL-safe base64, which
        // may contain "_" themselves, so the text is cut by position, not split).
        var token = token
        guard
            let (id, hash) = token.withUTF8({ bytes -> (String, SHA256.Digest)? in
                guard bytes.count == 63, bytes.starts(with: "carnet_".utf8), bytes[19] == UInt8(ascii: "_") else {
                    return nil
                }
                return (
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[7..<19]), as: UTF8.self),
                    SHA256.hash(data: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[20...]))
                )
            })
        else { return nil }
        guard let entry = try await entry(id: id), entry.record.revoked == nil else { return nil }
        guard hash.withUnsafeBytes({ Self.constantTimeEqual($0, entry.record.secretHash) }) else { return nil }
        return entry.identity
    }

    /// Access a management mutation of this process took away: the tokens it concerns are looked up again at their
    /// next use (not after the cache's lifetime), and the subscriptions it ends end now.
    func narrowed(_ narrowing: AccessNarrowing) {
        cache.withLock { entries in
            switch narrowing {
            case .tokenRevoked(let tokenID):
                entries[tokenID] = nil
            case .principalDisabled(let principalID), .grantWithdrawn(_, let principalID):
                entries = entries.filter { $0.value.entry?.identity.principalID != principalID }
            case .bookDeleted(let bookID):
                entries = entries.filter { entry in
                    guard let identity = entry.value.entry?.identity else { return true }
                    return identity.book.id != bookID && !(identity.bookIDs?.contains(bookID) ?? false)
                }
            }
        }
        subscriptions.narrowed(narrowing)
    }

    /// What an identity authenticated earlier (an open socket's) grants now, read at most `maxAge` ago: `nil`
    /// once its token is revoked, its principal disabled or its default book's grant withdrawn.
    public func recheck(_ identity: AccessIdentity, maxAge: Duration) async throws -> AccessIdentity? {
        guard let entry = try await entry(id: identity.tokenID, maxAge: min(maxAge, cacheLifetime)),
            entry.record.revoked == nil
        else { return nil }
        return entry.identity
    }

    private func entry(id: String, maxAge: Duration? = nil) async throws -> Entry? {
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0[id] }), now - cached.fetched < (maxAge ?? cacheLifetime) {
            return cached.entry
        }
        let lookup = lookups.withLock { running in
            if let shared = running[id] { return shared }
            let started = Task { [self] in
                defer { _ = self.lookups.withLock { $0.removeValue(forKey: id) } }
                let entry = try await identity(id: id)
                cache.withLock { entries in
                    // Unknown ids are cached too (bounded), so guessing does not turn into database reads.
                    if entries.count > 10_000 { entries.removeAll(keepingCapacity: true) }
                    entries[id] = (entry, now)
                }
                return entry
            }
            running[id] = started
            return started
        }
        return try await lookup.value
    }

    /// The token's record and the identity it grants now: `nil` for an unknown token, a disabled principal, or a
    /// token none of whose books the principal may still open (grants revoked, books deleted since it was made).
    ///
    /// Its root fields mean the principal's default book, unless the token is limited to other books: then the
    /// first of those the principal may still open, so a token limited to several books lives as long as one of
    /// them. It may write if it has the scope and one of its books is writable; each book's access decides what
    /// is written where (a book shared read-only refuses saves whatever the token's scopes).
    private func identity(id: String) async throws -> Entry? {
        guard let (record, principal) = try await catalog.accessToken(id: id), principal.disabled == nil else {
            return nil
        }
        var candidates = record.bookIDs ?? []
        if let own = principal.defaultBookID, record.bookIDs?.contains(own) ?? true {
            candidates.removeAll { $0 == own }
            candidates.insert(own, at: 0)
        }
        var chosen: (book: AddressBook, access: BookAccess)?
        var writable = false
        for bookID in candidates where chosen == nil || !writable {
            guard let (book, access) = try await catalog.access(principalID: principal.id, bookID: bookID) else {
                continue
            }
            if chosen == nil { chosen = (book, access) }
            writable = writable || access.canWrite
        }
        guard let (book, access) = chosen else { return nil }
        var scopes = Set(record.scopes.compactMap(AccessScope.init(rawValue:)))
        if !writable { scopes.remove(.write) }
        return Entry(
            record: record,
            identity: AccessIdentity(
                tokenID: record.id, name: record.name, scopes: scopes, authors: record.authors,
                principalID: principal.id, book: book, bookAccess: access, bookIDs: record.bookIDs))
    }

    /// Equal length and bytes, taking the same time wherever the first difference is.
    static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    /// URL-safe base64 without padding of `bytes` random bytes (9 → 12 characters, 32 → 43).
    static func randomText(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
