/// A position in a sorted list of contacts: the sort key and identifier of the last contact seen (the rowid for
/// creation order). Keyset pagination on it neither repeats nor skips unchanged contacts while others come and go.
package struct ContactCursor: Hashable {
    package var order: ContactSortOrder
    package var rowid: Int64
    package var identifier: String
    package var sortKey: String

    package var encoded: String {
        let text = "1|\(order.rawValue)|\(rowid)|\(identifier)|\(sortKey)"
        return Base64URL.encode(text.utf8)
    }

    package init(order: ContactSortOrder, rowid: Int64, identifier: String, sortKey: String) {
        self.order = order
        self.rowid = rowid
        self.identifier = identifier
        self.sortKey = sortKey
    }

    /// Decodes a cursor for `order`; throws ``StoreError/Code/predicateInvalid`` for anything else.
    package init(encoded: String, order: ContactSortOrder) throws {
        guard encoded.utf8.count <= 8192, let text = Base64URL.decodeText(encoded) else { throw Self.invalid }
        let parts = text.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        // No cursor this store wrote holds U+0000 (PostgreSQL could not even compare with it).
        guard parts.count == 5, parts[0] == "1", let rowid = Int64(parts[2]), !text.utf8.contains(0) else {
            throw Self.invalid
        }
        guard parts[1] == order.rawValue else {
            throw StoreError(.predicateInvalid, "The cursor belongs to another sort order")
        }
        self.init(order: order, rowid: rowid, identifier: parts[3], sortKey: parts[4])
    }

    package static let invalid = StoreError(.predicateInvalid, "Malformed cursor")
}

extension ContactCursor {
    /// Whether this position comes before `other` in their (shared) order.
    package func isBefore(_ other: ContactCursor) -> Bool {
        if order == .none { return rowid < other.rowid }
        return (sortKey, identifier) < (other.sortKey, other.identifier)
    }
}
