/// A position in a sorted list of contacts: the sort key and identifier of the last contact seen (the rowid for
/// creation order). Keyset pagination on it neither repeats nor skips unchanged contacts while others come and go.
package struct ContactCursor: Hashable {
    package var order: ContactSortOrder
    package var rowid: Int64
    package var identifier: String
    package var sortKey: String
    /// Whether its backend orders sort keys and identifiers byte by byte (PostgreSQL's `COLLATE "C"`), as
    /// ``isBefore(_:)`` then does; SQLite's pages keep Swift's order. Not part of the cursor a client holds.
    package var bytewise = false

    /// The cursor as a client sees it, bound to the store (the address book) whose page it comes from: passed to
    /// another book's fetch, it is refused rather than taken for a position there.
    package func encoded(storeID: String) -> String {
        let text = "2|\(storeID)|\(order.rawValue)|\(rowid)|\(identifier)|\(sortKey)"
        return Base64URL.encode(text.utf8)
    }

    package init(order: ContactSortOrder, rowid: Int64, identifier: String, sortKey: String) {
        self.order = order
        self.rowid = rowid
        self.identifier = identifier
        self.sortKey = sortKey
    }

    /// Decodes a cursor for `order` (its store checked by ``check(_:storeID:)``); throws
    /// ``StoreError/Code/predicateInvalid`` for anything else.
    package init(encoded: String, order: ContactSortOrder) throws {
        guard encoded.utf8.count <= 8192, let text = Base64URL.decodeText(encoded) else { throw Self.invalid }
        let parts = text.split(separator: "|", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        // No cursor this store wrote holds U+0000 (PostgreSQL could not even compare with it).
        guard parts.count == 6, parts[0] == "2", let rowid = Int64(parts[3]), !text.utf8.contains(0) else {
            throw Self.invalid
        }
        guard parts[2] == order.rawValue else {
            throw StoreError(.predicateInvalid, "The cursor belongs to another sort order")
        }
        self.init(order: order, rowid: rowid, identifier: parts[4], sortKey: parts[5])
    }

    /// Refuses a page request whose cursor comes from another store's page: another address book's contacts hold
    /// other positions, and a page from there would be silently wrong.
    package static func check(_ page: PageRequest, storeID: String) throws {
        let cursor: String? =
            switch page {
            case .first(_, let after): after
            case .last(_, let before): before
            }
        guard let cursor else { return }
        guard cursor.utf8.count <= 8192, let text = Base64URL.decodeText(cursor) else { throw Self.invalid }
        let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "2" else { throw Self.invalid }
        guard parts[1] == storeID else { throw Self.otherStore }
    }

    package static let otherStore = StoreError(
        .predicateInvalid, "The cursor belongs to another address book's page")
    package static let invalid = StoreError(.predicateInvalid, "Malformed cursor")
}

extension ContactCursor {
    /// Whether this position comes before `other` in their (shared) order.
    /// Positions of a bytewise backend compare by bytes: Swift's `<` orders canonically (NFD Hangul as its
    /// syllable, after 日), and a unified page merged by it repeated a contact and changed its order with the
    /// page size (an outside tester's find).
    package func isBefore(_ other: ContactCursor) -> Bool {
        if order == .none { return rowid < other.rowid }
        guard bytewise || other.bytewise else { return (sortKey, identifier) < (other.sortKey, other.identifier) }
        if !sortKey.hasSameBytes(as: other.sortKey) {
            return sortKey.utf8.lexicographicallyPrecedes(other.sortKey.utf8)
        }
        return identifier.utf8.lexicographicallyPrecedes(other.identifier.utf8)
    }
}
