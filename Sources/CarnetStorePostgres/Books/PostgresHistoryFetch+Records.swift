import CarnetStore
import Foundation
import PostgresNIO

extension PostgresHistoryFetch {
    /// Drops events about records that are gone now (their delete event covers them), attaches the current
    /// contacts and groups to add and update events, and states each membership as it is now: a replayed add
    /// cannot undo a client's own later remove.
    func attachRecords(to events: inout [ChangeHistoryEvent]) async throws {
        var contactIDs: [String] = []
        var groupIDs: [String] = []
        for event in events {
            if event.kind != .deleteContact, event.contact == nil, let id = event.contactIdentifier {
                contactIDs.append(id)
            }
            if event.kind != .deleteGroup, let id = event.groupIdentifier { groupIDs.append(id) }
        }
        let contacts = try await PostgresContactLoader(keys: request.contactKeys).load(
            connection, store: store, identifiers: contactIDs)
        let contactsByID = Dictionary(contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        let groups = try await PostgresStore.groups(connection, store: store, identifiers: groupIDs)
        let groupsByID = Dictionary(groups.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        let members = try await currentMemberships(of: events)
        let deleted = try await deletedMembers(of: events) { contactsByID[$0] != nil }
        var groupsStated = HistoryGroupState.groupsWithEvents(events)
        let authors = MembershipAuthors(events)
        events = events.compactMap { event in
            var event = event
            switch event.kind {
            case .addContact, .updateContact:
                if event.contact != nil { return event }
                guard let contact = contactsByID[event.contactIdentifier ?? ""] else { return nil }
                event.contact = contact
            case .addGroup, .updateGroup:
                guard let group = groupsByID[event.groupIdentifier ?? ""] else { return nil }
                event.group = group
            case .addMemberToGroup, .removeMemberFromGroup:
                guard let contact = event.contactIdentifier, let group = event.groupIdentifier,
                    let record = groupsByID[group]
                else { return nil }
                // A deleted contact's membership: its group's state comes as the group's update (HistoryGroupState).
                guard contactsByID[contact] != nil || request.keepsUnknownMemberships else {
                    let stated = HistoryGroupState.stateGroup(
                        &event, record, memberDeleted: deleted.contains(contact), stated: &groupsStated,
                        authors: authors)
                    return stated ? event : nil
                }
                let stated: ChangeEventKind =
                    members.contains("\(group)\n\(contact)") ? .addMemberToGroup : .removeMemberFromGroup
                event.author = authors.author(of: event, stated: stated)
                event.kind = stated
                // The group as it is now, with the revision and member count this membership changed.
                event.group = record
            case .dropEverything, .deleteContact, .deleteGroup:
                break
            }
            return event
        }
    }

    /// The contacts of the events' memberships that are deleted now (their identifiers retired as contacts'), of
    /// those not loaded.
    private func deletedMembers(of events: [ChangeHistoryEvent], isLoaded: (String) -> Bool) async throws
        -> Set<String>
    {
        guard !request.keepsUnknownMemberships else { return [] }
        let unknown = HistoryGroupState.unknownMembers(events, isLoaded: isLoaded)
        guard !unknown.isEmpty else { return [] }
        let rows = try await connection.rows(
            """
            SELECT id FROM book_retired_identifier
            WHERE book_id = \(store.bookID) AND kind = \(Int16(RetiredKind.contact.rawValue)) AND id = ANY(\(unknown))
            """, logger: store.logger
        ).decode(String.self).array()
        return Set(rows)
    }

    /// Which of the events' memberships exist now, as "group\ncontact".
    private func currentMemberships(of events: [ChangeHistoryEvent]) async throws -> Set<String> {
        var groups: [String] = []
        var contacts: [String] = []
        for event in events where event.kind == .addMemberToGroup || event.kind == .removeMemberFromGroup {
            guard let group = event.groupIdentifier, let contact = event.contactIdentifier else { continue }
            groups.append(group)
            contacts.append(contact)
        }
        guard !groups.isEmpty else { return [] }
        let rows = try await connection.rows(
            """
            SELECT m.group_id, m.contact_id FROM unnest(\(groups)::text[], \(contacts)::text[]) AS w(g, c)
            JOIN group_member m ON m.book_id = \(store.bookID) AND m.group_id = w.g AND m.contact_id = w.c
            """, logger: store.logger
        ).decode((String, String).self).array()
        return Set(rows.map { "\($0.0)\n\($0.1)" })
    }
}
