import CarnetStore
import Foundation
import PostgresNIO

extension BookImport {
    func insertGroups(_ groups: [ArchivedGroup]) async throws {
        guard !groups.isEmpty else { return }
        try await insertRows(
            into: "contact_group",
            [
                ("id", "text", nil), ("container_id", "text", nil), ("name", "text", nil), ("sort_name", "text", nil),
                ("created_order", "int8", nil), ("created_revision", "int8", nil), ("name_revision", "int8", nil),
                ("revision", "int8", nil), ("created_at", "float8", nil), ("modified_at", "float8", nil),
            ]
        ) { bindings in
            bindings.append(groups.map(\.identifier))
            bindings.append(groups.map(\.containerID))
            bindings.append(groups.map(\.name))
            bindings.append(groups.map { GroupIndexing.sortName($0.name) })
            bindings.append(groups.map(\.createdOrder))
            bindings.append(groups.map(\.createdRevision))
            bindings.append(groups.map(\.nameRevision))
            bindings.append(groups.map(\.revision))
            bindings.append(groups.map(\.createdAt))
            bindings.append(groups.map(\.modifiedAt))
        }
    }

    /// Memberships keep both records' creation orders, the full sync's order of memberships.
    func insertMemberships(_ memberships: [ArchivedMembership]) async throws {
        guard !memberships.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO group_member (book_id, group_id, contact_id, group_order, contact_order)
            SELECT \(bookID), u.group_id, u.contact_id, g.created_order, c.created_order
            FROM unnest(\(memberships.map(\.groupID))::text[], \(memberships.map(\.contactID))::text[])
                AS u(group_id, contact_id)
            JOIN contact_group g ON g.book_id = \(bookID) AND g.id = u.group_id
            JOIN contact c ON c.book_id = \(bookID) AND c.id = u.contact_id
            """, logger: logger)
    }

    func insertValueVersions(_ versions: [ArchivedValueVersion]) async throws {
        guard !versions.isEmpty else { return }
        try await insertRows(
            into: "labeled_value_version",
            [
                ("value_id", "text", nil), ("superseded_revision", "int8", nil),
                ("label", "text", "CASE WHEN u_label_null THEN NULL ELSE u_label END"), ("label_null", "bool", ""),
                ("value", "text", nil),
            ]
        ) { bindings in
            bindings.append(versions.map(\.valueID))
            bindings.append(versions.map(\.supersededRevision))
            bindings.append(versions.map { $0.label ?? "" })
            bindings.append(versions.map { $0.label == nil })
            bindings.append(versions.map(\.value))
        }
    }

    func insertRetired(_ retired: [ArchivedRetiredIdentifier]) async throws {
        guard !retired.isEmpty else { return }
        try await insertRows(
            into: "book_retired_identifier",
            [
                ("id", "text", nil), ("kind", "int2", nil),
                ("owner_id", "text", "CASE WHEN u_owner_null THEN NULL ELSE u_owner_id END"),
                ("owner_null", "bool", ""),
                ("revision", "int8", nil),
            ]
        ) { bindings in
            bindings.append(retired.map(\.identifier))
            bindings.append(retired.map { Int16($0.kind) })
            bindings.append(retired.map { $0.ownerID ?? "" })
            bindings.append(retired.map { $0.ownerID == nil })
            bindings.append(retired.map(\.revision))
        }
    }

    func insertTransactions(_ transactions: [ArchivedTransaction]) async throws {
        guard !transactions.isEmpty else { return }
        try await insertRows(
            into: "save_transaction",
            [
                ("seq", "int8", nil), ("author", "text", "CASE WHEN u_author_null THEN NULL ELSE u_author END"),
                ("author_null", "bool", ""), ("timestamp", "float8", nil),
            ]
        ) { bindings in
            bindings.append(transactions.map(\.revision))
            bindings.append(transactions.map { $0.author ?? "" })
            bindings.append(transactions.map { $0.author == nil })
            bindings.append(transactions.map(\.timestamp))
        }
    }

    func insertEvents(_ events: [ArchivedEvent]) async throws {
        guard !events.isEmpty else { return }
        try await insertRows(
            into: "change_event",
            [
                ("position", "int8", nil), ("seq", "int8", nil), ("kind", "int2", nil), ("record_id", "text", nil),
                ("other_id", "text", "CASE WHEN u_other_null THEN NULL ELSE u_other_id END"),
                ("other_null", "bool", ""),
                ("changed_keys", "text", "CASE WHEN u_keys_null THEN NULL ELSE u_changed_keys END"),
                ("keys_null", "bool", ""),
            ]
        ) { bindings in
            bindings.append(events.map(\.position))
            bindings.append(events.map(\.revision))
            bindings.append(events.map { Int16($0.kind) })
            bindings.append(events.map(\.recordID))
            bindings.append(events.map { $0.otherID ?? "" })
            bindings.append(events.map { $0.otherID == nil })
            bindings.append(events.map { $0.changedKeys ?? "" })
            bindings.append(events.map { $0.changedKeys == nil })
        }
    }
}
