import CarnetStore
import PostgresNIO

extension PostgresSaveTransaction {
    /// Links the contacts and returns the unified contact's identifier.
    mutating func linkContacts(_ identifiers: [String]) async throws -> String {
        let groups = try await linkGroups(containing: identifiers)
        let orders = try await createdOrders(identifiers + groups.flatMap(\.members))
        var targets: [(identifier: String, target: LinkPlan.Target)] = []
        for identifier in identifiers {
            if orders[identifier] != nil {
                targets.append((identifier, .contact(identifier, groups.first { $0.members.contains(identifier) })))
            } else if let group = groups.first(where: { $0.identifier == identifier }) {
                targets.append((identifier, .unified(group)))
            } else {
                throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
            }
        }
        let plan = try LinkPlan.link(targets, creationOrder: orders, makeIdentifier: Contact.makeIdentifier)
        try await apply(plan)
        return plan.written[0].identifier
    }

    mutating func unlinkContact(_ identifier: String) async throws {
        try await apply(LinkPlan.unlink(identifier, from: try await linkGroup(ofMember: identifier)))
    }

    mutating func preferLinkedContact(_ identifier: String, forName: Bool) async throws {
        try await apply(LinkPlan.prefer(identifier, in: try await linkGroup(ofMember: identifier), forName: forName))
    }

    /// Takes a contact about to be deleted out of its unified contact, if it is in one.
    mutating func unlinkBeforeDelete(_ identifier: String) async throws {
        guard let group = try await linkGroups(containing: [identifier]).first, group.members.contains(identifier)
        else { return }
        unifiedChangedByDeletes += LinkPlan.changedByDeleting(identifier, from: group)
        try await apply(LinkPlan.removing(identifier, from: group))
    }

    /// The unified contact `identifier` names by its own identifier, if any (not a member's).
    func unifiedGroup(_ identifier: String) async throws -> LinkGroup? {
        try await linkGroups(containing: [identifier]).first { $0.identifier == identifier }
    }

    /// A row when a link change (which logs an update with no keys for each member it leaves; see the SQLite
    /// backend) touched one of `members` after `revision`, in another commit than `seq`: a few seeks of
    /// `change_event_link_change` per member (``BookSchema/v8``), however long the history since. Or when
    /// compaction may have deleted events after `revision`, a link change among them: events before the oldest
    /// kept one of an earlier commit (with none kept, up to the last commit) may be gone.
    static func linkChangeQuery(book: String, members: [String], since revision: Int64, excluding seq: Int64)
        -> PostgresQuery
    {
        """
        SELECT 1 FROM change_event WHERE \(unescaped: BookSchema.linkChangeCondition) AND book_id = \(book)
            AND record_id = ANY(\(members)) AND seq > \(revision) AND seq <> \(seq)
        UNION ALL
        SELECT 1 FROM book_store b WHERE b.book_id = \(book) AND b.oldest_position > 0
            AND \(revision) < coalesce(
                (SELECT min(seq) - 1 FROM change_event WHERE book_id = \(book) AND seq < \(seq)), b.last_seq)
        LIMIT 1
        """
    }

    /// Writes an update through a unified contact to its members (``UnifiedUpdate``).
    mutating func updateUnified(_ update: Contact, _ group: LinkGroup, baseRevision: Int64?) async throws {
        if let baseRevision {
            let changed = try await run(
                Self.linkChangeQuery(book: bookID, members: group.members, since: baseRevision, excluding: seq)
            ).collect()
            if !changed.isEmpty { throw UnifiedUpdate.linkChangedConflict(group, update, baseRevision: baseRevision) }
        }
        let loaded = try await PostgresContactLoader(keys: UnifiedContact.memberKeys(for: update.modifiedKeys))
            .load(connection, bookID: bookID, logger: logger, identifiers: group.members)
        let members = Dictionary(uniqueKeysWithValues: loaded.map { ($0.identifier, $0) })
        for memberUpdate in try UnifiedUpdate.route(update, through: group, members: members) {
            try await updateContact(memberUpdate, baseRevision: baseRevision)
        }
    }

    private func linkGroups(containing identifiers: [String]) async throws -> [LinkGroup] {
        try await PostgresLinkRows.groups(connection, logger: logger, book: bookID, containing: identifiers)
    }

    private func createdOrders(_ identifiers: [String]) async throws -> [String: Int64] {
        let rows = try await run(
            "SELECT id, created_order FROM contact WHERE book_id = \(bookID) AND id = ANY(\(identifiers)) FOR UPDATE"
        ).decode((String, Int64).self).array()
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    private func linkGroup(ofMember identifier: String) async throws -> LinkGroup? {
        guard try await createdOrders([identifier])[identifier] != nil else {
            if try await unifiedGroup(identifier) != nil {
                throw StoreError(
                    .linkInvalid, "Name a member contact, not the unified contact", affected: [identifier])
            }
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        return try await linkGroups(containing: [identifier]).first { $0.members.contains(identifier) }
    }

    private mutating func apply(_ plan: LinkPlan) async throws {
        for group in plan.written {
            try await run("DELETE FROM contact_link WHERE book_id = \(bookID) AND unified_id = \(group.identifier)")
            try await run(
                """
                INSERT INTO contact_link (book_id, contact_id, unified_id, preferred_for_name, preferred_for_image)
                SELECT \(bookID), m, \(group.identifier), m = \(group.preferredForName), m = \(group.preferredForImage)
                FROM unnest(\(group.members)::text[]) AS m
                ON CONFLICT (book_id, contact_id) DO UPDATE SET unified_id = excluded.unified_id,
                    preferred_for_name = excluded.preferred_for_name, preferred_for_image = excluded.preferred_for_image
                """)
        }
        if !plan.unlinked.isEmpty {
            try await run("DELETE FROM contact_link WHERE book_id = \(bookID) AND contact_id = ANY(\(plan.unlinked))")
        }
        endedUnified += plan.retired
        for identifier in plan.retired {
            try await retire([identifier], kind: .unified)
            // Unified clients drop it; individual clients ignore a delete of a record they never saw.
            try await record(.deleteContact, identifier)
        }
        linkedNamesToRefresh.formUnion(plan.written.map(\.identifier) + plan.retired)
        let touched = Array(Set(plan.touched + plan.unlinked))
        try await run(
            """
            UPDATE contact c SET link_hidden = EXISTS (
                SELECT 1 FROM contact_link l WHERE l.book_id = c.book_id AND l.contact_id = c.id
                    AND NOT l.preferred_for_name),
                revision = CASE WHEN c.id = ANY(\(plan.touched)) THEN \(seq) ELSE c.revision END
            WHERE c.book_id = \(bookID) AND c.id = ANY(\(touched))
            """)
        for contact in plan.touched { try await record(.updateContact, contact, keys: []) }
        try await recordMemberships(plan)
    }

    /// A link change moves memberships between a unified contact and its members without changing any: it logs
    /// a membership event for each group of the contacts involved, for them and for each unified contact written,
    /// which history states as it is now (``LinkPlan/membershipRecords(groupsOf:)``).
    private mutating func recordMemberships(_ plan: LinkPlan) async throws {
        let contacts = Array(Set(plan.touched + plan.unlinked))
        guard !contacts.isEmpty else { return }
        var groupsOf: [String: [String]] = [:]
        for try await (contact, group) in try await run(
            """
            SELECT contact_id, group_id FROM group_member WHERE book_id = \(bookID) AND contact_id = ANY(\(contacts))
            """
        ).decode((String, String).self) {
            groupsOf[contact, default: []].append(group)
        }
        for (record, group) in plan.membershipRecords(groupsOf: groupsOf) {
            try await self.record(.addMemberToGroup, record, other: group)
        }
    }
}
