import CarnetStore
import Foundation
import PostgresNIO

extension PostgresSaveTransaction {
    struct GroupRow {
        var containerID: String
        var name: String
        var nameRevision: Int64
    }

    func groupRow(_ identifier: String) async throws -> GroupRow? {
        try await run(
            """
            SELECT container_id, name, name_revision FROM contact_group
            WHERE book_id = \(bookID) AND id = \(identifier) FOR UPDATE
            """
        ).decode((String, String, Int64).self).array().first.map {
            GroupRow(containerID: $0.0, name: $0.1, nameRevision: $0.2)
        }
    }

    /// Refuses the save when a container bears a name the request says it must not (``GroupNameAbsence``). The
    /// book's lock, taken when the transaction began, keeps any other save from making the group meanwhile.
    func checkAbsent(_ absences: [GroupNameAbsence]) async throws {
        for absence in absences {
            let container = try await container(absence.containerIdentifier?.storable)
            let found = try await run(
                """
                SELECT 1 FROM contact_group
                WHERE book_id = \(bookID) AND container_id = \(container)
                    AND sort_name = \(GroupIndexing.sortName(absence.name.storable)) AND name = \(absence.name.storable)
                LIMIT 1
                """
            ).collect()
            if !found.isEmpty { throw absence.conflict(container: container) }
        }
    }

    mutating func addGroup(_ group: Group, containerIdentifier: String?) async throws {
        try await ensureUnused(group.identifier)
        let container = try await container(containerIdentifier)
        try await run(
            """
            INSERT INTO contact_group (book_id, id, container_id, name, sort_name, created_order, created_revision,
                name_revision, revision, created_at, modified_at)
            SELECT \(bookID), \(group.identifier), \(container), \(group.name), \(GroupIndexing.sortName(group.name)),
                coalesce(max(created_order), 0) + 1, \(seq), \(seq), \(seq), \(now), \(now)
            FROM contact_group WHERE book_id = \(bookID)
            """)
        try await record(.addGroup, group.identifier, other: container)
    }

    mutating func updateGroup(_ group: Group, baseRevision: Int64?) async throws {
        guard let stored = try await groupRow(group.identifier) else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [group.identifier])
        }
        // By bytes: an update to another spelling of the same name (NFC, NFD) is a rename, stored.
        guard !stored.name.hasSameBytes(as: group.name) else { return }
        if let base = baseRevision, stored.nameRevision > base {
            throw StoreError(
                .conflict, "The group's name changed since revision \(base)", affected: [group.identifier],
                keyPaths: ["name"])
        }
        try await run(
            """
            UPDATE contact_group SET name = \(group.name), sort_name = \(GroupIndexing.sortName(group.name)),
                name_revision = \(seq), revision = \(seq), modified_at = \(now)
            WHERE book_id = \(bookID) AND id = \(group.identifier)
            """)
        try await record(.updateGroup, group.identifier)
    }

    mutating func deleteGroup(_ identifier: String) async throws {
        let deleted = try await run(
            "DELETE FROM contact_group WHERE book_id = \(bookID) AND id = \(identifier) RETURNING id"
        ).collect()
        guard !deleted.isEmpty else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier])
        }
        try await retire([identifier], kind: .group)
        try await record(.deleteGroup, identifier)
    }

    /// Adds or removes a member; a no-op (no event, no new revision) when the membership is already as asked.
    mutating func changeMembership(contact: String, group: String, add: Bool) async throws {
        guard let groupRow = try await groupRow(group) else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [group])
        }
        guard
            let memberContainer = try await run(
                "SELECT container_id FROM contact WHERE book_id = \(bookID) AND id = \(contact)"
            ).decode(String.self).array().first
        else {
            throw try await unifiedGroup(contact) != nil
                ? StoreError.unifiedMembership(contact)
                : StoreError(.recordDoesNotExist, "No such contact", affected: [contact])
        }
        // Each statement returns the contact's unified contact too, saving a round trip for it.
        let changed: [PostgresRow]
        if add {
            guard memberContainer == groupRow.containerID else {
                throw StoreError(
                    .containmentScope, "A group's members must come from the group's container",
                    affected: [contact, group])
            }
            changed = try await run(
                """
                INSERT INTO group_member (book_id, group_id, contact_id, group_order, contact_order)
                SELECT \(bookID), \(group), \(contact), g.created_order, c.created_order
                FROM contact_group g, contact c
                WHERE g.book_id = \(bookID) AND g.id = \(group) AND c.book_id = \(bookID) AND c.id = \(contact)
                ON CONFLICT DO NOTHING RETURNING group_id,
                  (SELECT unified_id FROM contact_link WHERE book_id = \(bookID) AND contact_id = \(contact))
                """
            ).collect()
        } else {
            changed = try await run(
                """
                DELETE FROM group_member WHERE book_id = \(bookID) AND group_id = \(group) AND contact_id = \(contact)
                RETURNING group_id,
                  (SELECT unified_id FROM contact_link WHERE book_id = \(bookID) AND contact_id = \(contact))
                """
            ).collect()
        }
        guard let row = changed.first else { return }
        try await reviseGroups([group])
        try await record(add ? .addMemberToGroup : .removeMemberFromGroup, contact, other: group)
        // A linked contact's membership is its unified contact's too: logged for that as well, so that a unified
        // page states it even when the member has left the unified contact (deleted or unlinked) by the time the
        // page is read. The page restates the kind from the unified contact's groups; should the unified contact
        // be gone by then, the event passes as it is, and a removal is what holds.
        if let unified = try row.decode((String, String?).self).1 {
            try await record(.removeMemberFromGroup, unified, other: group)
        }
    }

    /// The groups the contacts are in, as (contact, group) pairs in the contacts' and then the groups' creation
    /// order.
    func groupsOf(_ contacts: [String]) async throws -> [(contact: String, group: String)] {
        try await run(
            """
            SELECT contact_id, group_id FROM group_member WHERE book_id = \(bookID) AND contact_id = ANY(\(contacts))
            ORDER BY contact_order, group_order
            """
        ).decode((String, String).self).array().map { (contact: $0.0, group: $0.1) }
    }

    /// Gives the groups this commit's revision, once per group and commit (an import puts a thousand contacts into
    /// a few groups in one), in one statement.
    mutating func reviseGroups(_ groups: [String]) async throws {
        let revised = groups.filter { revisedGroups.insert($0).inserted }
        guard !revised.isEmpty else { return }
        try await run(
            """
            UPDATE contact_group SET revision = \(seq), modified_at = \(now)
            WHERE book_id = \(bookID) AND id = ANY(\(revised))
            """)
    }

    /// The history of deleting these contacts, as one by one: each contact's delete, then an update of each group
    /// it left that no delete of the commit left before, which carries its new revision and member count; and those
    /// groups, to revise. The memberships go with the contacts' rows (a page drops membership events of deleted
    /// contacts). Before, the groups changed with neither, and a replica that keeps groups from their events held a
    /// stale revision and count (an outside tester's find).
    mutating func deleteEvents(_ contacts: [String], groups memberships: [(contact: String, group: String)])
        -> (events: [(kind: ChangeEventKind, record: String, other: String?)], groups: [String])
    {
        var groupsOf: [String: [String]] = [:]
        for membership in memberships { groupsOf[membership.contact, default: []].append(membership.group) }
        var events: [(kind: ChangeEventKind, record: String, other: String?)] = []
        var left: [String] = []
        for contact in contacts {
            events.append((.deleteContact, contact, nil))
            for group in groupsOf[contact] ?? [] where groupsLeft.insert(group).inserted {
                events.append((.updateGroup, group, nil))
                left.append(group)
                groupsLeftInOrder.append(group)
            }
        }
        return (events, left)
    }
}
