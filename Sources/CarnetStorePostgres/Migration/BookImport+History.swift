import CarnetStore
import Foundation
import PostgresNIO

extension BookImport {
    func insertGroups(_ groups: [ArchivedGroup]) async throws {
        guard !groups.isEmpty else { return }
        try await insertRows(
            into: "contact_group",
            [
                .values("id", "text", groups.map(\.identifier)),
                .values("container_id", "text", groups.map(\.containerID)),
                .values("name", "text", groups.map(\.name)),
                .values("sort_name", "text", groups.map { GroupIndexing.sortName($0.name) }),
                .values("created_order", "int8", groups.map(\.createdOrder)),
                .values("created_revision", "int8", groups.map(\.createdRevision)),
                .values("name_revision", "int8", groups.map(\.nameRevision)),
                .values("revision", "int8", groups.map(\.revision)),
                .values("created_at", "float8", groups.map(\.createdAt)),
                .values("modified_at", "float8", groups.map(\.modifiedAt)),
            ])
    }

    /// Memberships keep both records' creation orders, the full sync's order of memberships.
    func insertMemberships(_ memberships: [ArchivedMembership]) async throws {
        guard !memberships.isEmpty else { return }
        try await connection.rows(
            """
            INSERT INTO group_member (book_id, group_id, contact_id, group_order, contact_order)
            SELECT \(bookID), u.group_id, u.contact_id, g.created_order, c.created_order
            FROM unnest(\(memberships.map(\.groupID))::text[], \(memberships.map(\.contactID))::text[])
                AS u(group_id, contact_id)
            JOIN contact_group g ON g.book_id = \(bookID) AND g.id = u.group_id
            JOIN contact c ON c.book_id = \(bookID) AND c.id = u.contact_id
            """, logger: logger)
    }

    /// Unified contacts, with the flag on each member that does not stand for its unified contact.
    func insertLinks(_ groups: [LinkGroup]) async throws {
        guard !groups.isEmpty else { return }
        let rows = groups.flatMap { group in
            group.members.map { (group.identifier, $0, $0 == group.preferredForName, $0 == group.preferredForImage) }
        }
        try await connection.rows(
            """
            INSERT INTO contact_link (book_id, contact_id, unified_id, preferred_for_name, preferred_for_image)
            SELECT \(bookID), u.contact_id, u.unified_id, u.for_name, u.for_image
            FROM unnest(\(rows.map(\.1))::text[], \(rows.map(\.0))::text[], \(rows.map(\.2))::bool[],
                \(rows.map(\.3))::bool[]) AS u(contact_id, unified_id, for_name, for_image)
            """, logger: logger)
        try await connection.rows(
            """
            UPDATE contact SET link_hidden = true
            WHERE book_id = \(bookID) AND id = ANY(\(rows.filter { !$0.2 }.map(\.1)))
            """, logger: logger)
    }

    func insertValueVersions(_ versions: [ArchivedValueVersion]) async throws {
        guard !versions.isEmpty else { return }
        try await insertRows(
            into: "labeled_value_version",
            [
                .values("value_id", "text", versions.map(\.valueID)),
                .values("superseded_revision", "int8", versions.map(\.supersededRevision)),
                .optional("label", versions.map(\.label)), .values("value", "text", versions.map(\.value)),
            ])
    }

    func insertRetired(_ retired: [ArchivedRetiredIdentifier]) async throws {
        guard !retired.isEmpty else { return }
        try await insertRows(
            into: "book_retired_identifier",
            [
                .values("id", "text", retired.map(\.identifier)),
                .values("kind", "int2", retired.map { Int16($0.kind) }),
                .optional("owner_id", retired.map(\.ownerID)), .values("revision", "int8", retired.map(\.revision)),
            ])
    }

    func insertTransactions(_ transactions: [ArchivedTransaction]) async throws {
        guard !transactions.isEmpty else { return }
        try await insertRows(
            into: "save_transaction",
            [
                .values("seq", "int8", transactions.map(\.revision)), .optional("author", transactions.map(\.author)),
                .values("timestamp", "float8", transactions.map(\.timestamp)),
            ])
    }

    func insertEvents(_ events: [ArchivedEvent]) async throws {
        guard !events.isEmpty else { return }
        try await insertRows(
            into: "change_event",
            [
                .values("position", "int8", events.map(\.position)), .values("seq", "int8", events.map(\.revision)),
                .values("kind", "int2", events.map { Int16($0.kind) }),
                .values("record_id", "text", events.map(\.recordID)), .optional("other_id", events.map(\.otherID)),
                .optional("changed_keys", events.map(\.changedKeys)),
            ])
    }
}
