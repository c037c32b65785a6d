/// What a link operation writes, decided before anything is written and the same on every backend.
///
/// The rules (the schema documents them):
/// - `linkContacts` joins the unified contacts of the named contacts (a contact not linked counts as one of its
///   own). The first named unified contact survives with its identifier and preferences; when every named
///   contact was unlinked, a new unified contact is made and its first named contact is preferred for name and
///   image. The other unified contacts' identifiers are retired.
/// - `unlinkContact` takes one member out. Its preferences pass to the oldest member left; a unified contact left
///   with one member ends.
/// - Deleting a member does what unlinking it does.
/// - `setPreferredForName` / `setPreferredForImage` name a member of a unified contact.
package struct LinkPlan: Sendable, Equatable {
    /// Unified contacts as they are after the operation, written whole.
    package var written: [LinkGroup] = []
    /// Contacts that are no longer linked to anything.
    package var unlinked: [String] = []
    /// Unified identifiers that end: retired, never used again.
    package var retired: [String] = []
    /// Contacts whose link state changed: each gets an update event.
    package var touched: [String] = []

    /// What a named identifier stands for, as the backend found it inside the save's transaction.
    package enum Target: Sendable, Equatable {
        /// A contact, with the unified contact it belongs to.
        case contact(String, LinkGroup?)
        /// A unified contact's identifier.
        case unified(LinkGroup)
    }

    package static func link(
        _ targets: [(identifier: String, target: Target)], creationOrder: [String: Int64],
        makeIdentifier: () -> String
    ) throws -> LinkPlan {
        var units: [(key: String, group: LinkGroup?, contact: String?)] = []
        var seen: [String: String] = [:]
        for (identifier, target) in targets {
            let unit: (key: String, group: LinkGroup?, contact: String?)
            switch target {
            case .contact(let contact, let group?): unit = (group.identifier, group, contact)
            case .contact(let contact, nil): unit = (contact, nil, contact)
            case .unified(let group): unit = (group.identifier, group, nil)
            }
            if let earlier = seen[unit.key] {
                throw StoreError(
                    .linkInvalid, "A contact cannot be linked with itself (the same unified contact twice)",
                    affected: [earlier, identifier])
            }
            seen[unit.key] = identifier
            units.append(unit)
        }
        guard units.count >= 2 else {
            throw StoreError(.linkInvalid, "Linking needs two or more contacts", affected: targets.map(\.identifier))
        }
        var members: [String] = []
        for unit in units { members += unit.group?.members ?? [unit.contact!] }
        guard members.count <= StoreLimits.contactsPerUnifiedContact else {
            throw StoreError(
                .linkInvalid, "A unified contact has at most \(StoreLimits.contactsPerUnifiedContact) members",
                affected: targets.map(\.identifier))
        }
        members.sort { (creationOrder[$0] ?? 0, $0) < (creationOrder[$1] ?? 0, $1) }
        var plan = LinkPlan()
        let survivor = units.first { $0.group != nil }?.group
        let first = units[0].group?.preferredForName ?? units[0].contact!
        var group =
            survivor
            ?? LinkGroup(identifier: makeIdentifier(), members: [], preferredForName: first, preferredForImage: first)
        group.members = members
        plan.written = [group]
        plan.retired = units.compactMap(\.group?.identifier).filter { $0 != group.identifier }
        plan.touched = members
        return plan
    }

    package static func unlink(_ contact: String, from group: LinkGroup?) throws -> LinkPlan {
        guard let group else {
            throw StoreError(.linkInvalid, "The contact is not linked", affected: [contact])
        }
        var plan = removing(contact, from: group)
        plan.touched = group.members
        return plan
    }

    /// What a client that excludes its own author learns only from the save's result when `contact` is deleted out
    /// of `group` (``SaveResult/unifiedContactsChangedByDeletes``): the unified contact, which goes on with fewer
    /// members, or the member it leaves alone when it ends.
    package static func changedByDeleting(_ contact: String, from group: LinkGroup) -> [String] {
        let left = group.members.filter { $0 != contact }
        return left.count <= 1 ? left : [group.identifier]
    }

    /// Takes a member out (unlinked or deleted): `touched` names the members left.
    package static func removing(_ contact: String, from group: LinkGroup) -> LinkPlan {
        var plan = LinkPlan()
        let left = group.members.filter { $0 != contact }
        plan.touched = left
        if left.count <= 1 {
            plan.unlinked = group.members
            plan.retired = [group.identifier]
            return plan
        }
        var kept = group
        kept.members = left
        if kept.preferredForName == contact { kept.preferredForName = left[0] }
        if kept.preferredForImage == contact { kept.preferredForImage = left[0] }
        plan.written = [kept]
        plan.unlinked = [contact]
        return plan
    }

    package static func prefer(_ contact: String, in group: LinkGroup?, forName: Bool) throws -> LinkPlan {
        guard var group else {
            throw StoreError(.linkInvalid, "The contact is not linked", affected: [contact])
        }
        if forName { group.preferredForName = contact } else { group.preferredForImage = contact }
        return LinkPlan(written: [group], touched: group.members)
    }

    /// The membership events a link change logs, as (record, group), given the groups of the contacts it touched
    /// or unlinked. Memberships do not change, but who stands for them does: each unified contact written is now
    /// in the groups of its members and may have left those of a contact taken out; a contact taken out stands
    /// for its own groups again. History states each as it is now, so one event per pair says enough.
    package func membershipRecords(groupsOf: [String: [String]]) -> [(record: String, group: String)] {
        var groups: [String] = []
        var seen = Set<String>()
        // Each contact's groups by identifier: the backends read them in no stated order (SQLite by group, PostgreSQL
        // as the memberships were made), and the same link must log the same history on both.
        for contact in Set(touched + unlinked).sorted() {
            for group in (groupsOf[contact] ?? []).sorted() where seen.insert(group).inserted { groups.append(group) }
        }
        var records: [(record: String, group: String)] = []
        for contact in unlinked {
            for group in (groupsOf[contact] ?? []).sorted() { records.append((contact, group)) }
        }
        for unified in written { for group in groups { records.append((unified.identifier, group)) } }
        return records
    }
}

extension StoreError {
    /// A merge named a unified contact: merging joins stored contacts of one container, so it names members.
    package static func unifiedMerge(_ identifier: String) -> StoreError {
        StoreError(
            .linkInvalid, "A merge joins contacts, not unified contacts: name the members to merge",
            affected: [identifier])
    }

    /// A group membership named a unified contact: memberships are its members' (each in its own container's
    /// groups), and the unified contact's groups are theirs together.
    package static func unifiedMembership(_ identifier: String) -> StoreError {
        StoreError(
            .linkInvalid,
            "A unified contact is in the groups its members are in: name the member in the group's container",
            affected: [identifier])
    }
}
