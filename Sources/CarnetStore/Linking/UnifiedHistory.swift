/// Change history per unified contact (``ChangeHistoryFetchRequest/unifyResults``), over any backend's history.
///
/// The events stay those of the individual contacts, read as they are now: an add or update of a linked contact is
/// an add or update of its unified contact (once per page) and a delete of the contact's own identifier, which a
/// unified client no longer holds; a membership event of a linked contact states its unified contact's membership
/// (in the group when any member is). A unified contact that ends logs a delete of its identifier, which reaches
/// unified clients as it is and which individual clients ignore as a record they never saw. Reading the links as
/// they are now (after the page) is what makes this converge: every later change to a link logs events for the
/// members it touches, which the next pages map again.
///
/// A linked contact's add or update is two events (its own identifier's delete and its unified contact's upsert), so
/// a page of ``ChangeHistoryFetchRequest/limit`` individual events could be twice the limit (an outside tester's
/// find). A page past it is read again with fewer individual events: those whose events fit. With a limit of 1, a
/// linked contact's change is still its two events: one token covers both.
package enum UnifiedHistory {
    package static func page(_ request: ChangeHistoryFetchRequest, in store: some ContactStore) async throws
        -> ChangeHistoryPage
    {
        var plain = request
        plain.unifyResults = false
        plain.keepsUnknownMemberships = true
        while true {
            let (page, fitting) = try await unified(try await store.changeHistory(plain), request, in: store)
            // Each read has fewer individual events than the last, down to one.
            guard page.events.count > request.limit, plain.limit > 1 else { return page }
            plain.limit = max(1, min(plain.limit - 1, fitting))
        }
    }

    /// The page with each linked contact's events stated as its unified contact's, and how many of its first
    /// individual events map to at most the request's limit of events.
    private static func unified(
        _ individual: ChangeHistoryPage, _ request: ChangeHistoryFetchRequest, in store: some ContactStore
    ) async throws -> (page: ChangeHistoryPage, fitting: Int) {
        var page = individual
        page.individualEvents = page.events
        // Not made unique first: a page names each record about once, and the backends read each group once.
        let groups = try await store.linkGroups(containing: page.events.compactMap(\.contactIdentifier))
        // A page without linked contacts (every page of a book without links) is the individual page, but for
        // the memberships of unified contacts that ended, which their delete events cover.
        guard !groups.isEmpty else { return (page, page.events.count) }
        var groupOf: [String: LinkGroup] = [:]
        for group in groups {
            // A link change logs membership events for the unified contact itself.
            groupOf[group.identifier] = group
            for member in group.members { groupOf[member] = group }
        }
        var records: [String: Contact] = [:]
        for chunk in groups.map(\.identifier).chunked(StoreLimits.pageSize) {
            for contact in try await UnifiedFetch.contacts(
                withIdentifiers: Array(chunk), keysToFetch: request.contactKeys, in: store)
            {
                records[contact.identifier] = contact
            }
        }
        var groupsOfMembers: [String: [Group]] = [:]
        if page.events.contains(where: { $0.kind == .addMemberToGroup || $0.kind == .removeMemberFromGroup }) {
            groupsOfMembers = try await store.groups(ofContacts: groups.flatMap(\.members))
        }
        var events: [ChangeHistoryEvent] = []
        var individual = page.events
        var upserted = Set<String>()
        var memberships = Set<[String]>()
        var fitting = 0
        for event in page.events {
            defer { if events.count <= request.limit { fitting += 1 } }
            guard let contact = event.contactIdentifier, let group = groupOf[contact] else {
                events.append(event)
                continue
            }
            switch event.kind {
            case .addContact, .updateContact:
                events.append(ChangeHistoryEvent(kind: .deleteContact, contact: contact, author: event.author))
                guard upserted.insert(group.identifier).inserted, let unified = records[group.identifier] else {
                    continue
                }
                var upsert = ChangeHistoryEvent(
                    kind: event.kind, contact: group.identifier, container: unified.containerIdentifier,
                    changedKeys: event.changedKeys, author: event.author)
                upsert.contact = unified
                events.append(upsert)
                for member in group.members {
                    individual.append(ChangeHistoryEvent(kind: .updateContact, contact: member, author: event.author))
                }
            case .addMemberToGroup, .removeMemberFromGroup:
                guard let groupID = event.groupIdentifier,
                    memberships.insert([group.identifier, groupID]).inserted
                else { continue }
                let isMember = group.members.contains { member in
                    groupsOfMembers[member]?.contains { $0.identifier == groupID } ?? false
                }
                for member in group.members {
                    individual.append(
                        ChangeHistoryEvent(kind: event.kind, contact: member, group: groupID, author: event.author))
                }
                var membership = ChangeHistoryEvent(
                    kind: isMember ? .addMemberToGroup : .removeMemberFromGroup, contact: group.identifier,
                    group: groupID, author: event.author)
                membership.group = event.group
                events.append(membership)
            default:
                events.append(event)
            }
        }
        page.events = events
        page.individualEvents = individual
        return (page, fitting)
    }
}
