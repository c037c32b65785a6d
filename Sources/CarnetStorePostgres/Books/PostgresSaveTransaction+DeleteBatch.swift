import CarnetStore
import PostgresNIO

/// One `deleteContact` operation of a batch, with its index in the save for errors.
struct PendingDelete {
    let identifier: String
    let operationIndex: Int
}

extension PostgresSaveTransaction {
    /// Deletes contacts as ``deleteContact(_:)`` does one by one, in a fixed number of statements, when each names
    /// a distinct stored contact that is in no unified contact: the common case of a clean-up. Any other run (a
    /// unified contact, a member, an unknown or repeated identifier) goes one by one, which gives its exact errors
    /// and link changes.
    mutating func deleteContacts(_ deletes: [PendingDelete]) async throws {
        let identifiers = deletes.map(\.identifier)
        guard deletes.count > 1, try await batchDeletable(identifiers) else {
            for delete in deletes {
                do {
                    _ = try await apply(.deleteContact(identifier: delete.identifier))
                } catch let error as StoreError {
                    throw error.at(operation: delete.operationIndex)
                }
            }
            return
        }
        let memberships = try await groupsOf(identifiers)
        try await removeNameIndex(identifiers)
        // Labeled values, memberships and key revisions go with the rows (ON DELETE CASCADE).
        try await run("DELETE FROM contact WHERE book_id = \(bookID) AND id = ANY(\(identifiers))")
        contactDelta -= deletes.count
        try await retire(identifiers, kind: .contact)
        let (events, left) = deleteEvents(identifiers, groups: memberships)
        try await reviseGroups(left)
        try await record(events)
    }

    /// Whether every identifier names a distinct contact of the book that is in no link group.
    private func batchDeletable(_ identifiers: [String]) async throws -> Bool {
        guard Set(identifiers).count == identifiers.count else { return false }
        let found = try await run(
            """
            SELECT count(*) FROM contact WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            """
        ).decode(Int64.self).array().first
        guard found == Int64(identifiers.count) else { return false }
        let linked = try await run(
            """
            SELECT 1 FROM contact_link WHERE book_id = \(bookID)
                AND (contact_id = ANY(\(identifiers)) OR unified_id = ANY(\(identifiers)))
            LIMIT 1
            """
        ).collect()
        return linked.isEmpty
    }
}
