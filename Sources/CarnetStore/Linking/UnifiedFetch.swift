/// Fetches with unification on (``ContactFetchRequest/unifyResults``), over any backend's plain fetches.
///
/// A unified contact stands in pages where its name-preferred member stands: it shows that member's name, so it
/// sorts there. A page of every contact (or of a container) is a page of the contacts that are not linked and of
/// the name-preferred members, each member then replaced by its unified contact. Another predicate may match a
/// unified contact through other members (``ContactPredicate/memberConditions``, each through any member): a second
/// page in the same order, of the name-preferred members of such unified contacts
/// (``ContactPredicate/LinkedMembers/standingForOthersMatching(_:)``), is merged with the first. Only a total count
/// reads those unified contacts one by one (at most ``StoreLimits/unifiedSearchLinkedMatches``).
package enum UnifiedFetch {
    package static func contacts(_ request: ContactFetchRequest, in store: some ContactStore) async throws
        -> ContactPage
    {
        var plain = request
        plain.unifyResults = false
        if let identifiers = request.predicate.identifiers {
            plain.predicate.identifiers = try await representatives(of: identifiers, in: store)
        }
        plain.predicate.linkedMembers = .excluded
        guard !plain.predicate.isContainerOrAll else {
            var page = try await store.contacts(plain)
            page.contacts = try await unify(page.contacts, keys: request.keysToFetch, in: store)
            return page
        }
        plain.includeTotalCount = false
        let page = try await store.contacts(plain)
        // The unified contacts that meet the filter through other members than the one standing for them (or
        // through several), placed by their name-preferred members: one more page in the same order from the same
        // cursor, merged with the first. Without conditions on members' values, the first page has them all.
        var found = ContactPage(contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false)
        if !plain.predicate.memberConditions.isEmpty {
            found = try await store.contacts(
                ContactFetchRequest(
                    predicate: standingMembers(meeting: plain.predicate), keysToFetch: [], sortOrder: request.sortOrder,
                    page: request.page))
        }
        guard !found.positions.isEmpty || request.includeTotalCount else {
            var unified = page
            unified.contacts = try await unify(page.contacts, keys: request.keysToFetch, in: store)
            return unified
        }
        var entries = zip(page.contacts, page.positions).map { (contact: Optional($0), position: $1) }
        let backward: Bool
        let count: Int
        switch request.page {
        case .first(let n, _): (backward, count) = (false, n)
        case .last(let n, _): (backward, count) = (true, n)
        }
        entries += found.positions.map { (contact: nil, position: $0) }
        // Whether more lie beyond this page, in the paging direction (a page past a cursor always has some before
        // it: that says nothing about the way on).
        let extraMore = backward ? found.hasPreviousPage : found.hasNextPage
        entries.sort { $0.position.isBefore($1.position) }
        var dedup = Set<String>()
        entries = entries.filter { dedup.insert($0.position.identifier).inserted }
        let more = entries.count > count || extraMore
        let kept = backward ? Array(entries.suffix(count)) : Array(entries.prefix(count))
        let unified = try await unify(
            kept.map { ($0.position.identifier, $0.contact) }, keys: request.keysToFetch, in: store)
        let present = kept.indices.filter { unified[$0] != nil }
        var total: Int?
        if request.includeTotalCount {
            total = try await totalCount(plain.predicate, in: store)
        }
        return ContactPage(
            contacts: present.map { unified[$0]! },
            positions: present.map { kept[$0].position },
            hasNextPage: backward ? page.hasNextPage : (page.hasNextPage || more),
            hasPreviousPage: backward ? (page.hasPreviousPage || more) : page.hasPreviousPage, totalCount: total)
    }

    /// Contacts by identifier (contact or unified), in the order asked, each unified contact once.
    package static func contacts(
        withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet, in store: some ContactStore
    ) async throws -> [Contact] {
        let (groups, members, unlinked) = try await store.contactsToUnify(
            withIdentifiers: identifiers, keysToFetch: keys)
        var byId: [String: LinkGroup] = [:]
        for group in groups {
            byId[group.identifier] = group
            for member in group.members { byId[member] = group }
        }
        var plain: [String: Contact] = [:]
        for contact in unlinked { plain[contact.identifier] = contact }
        let unified = synthesized(groups, members: members, keys: keys)
        var result: [Contact] = []
        var seen = Set<String>()
        for identifier in identifiers {
            let contact = byId[identifier].flatMap { unified[$0.identifier] } ?? plain[identifier]
            if let contact, seen.insert(contact.identifier).inserted { result.append(contact) }
        }
        return result
    }

    /// ``ContactStore/contactsToUnify(withIdentifiers:keysToFetch:)`` over any backend: the groups and their
    /// members, then the contacts named that no group holds.
    package static func contactsToUnify(
        withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet, in store: some ContactStore
    ) async throws -> (groups: [LinkGroup], members: [String: Contact], unlinked: [Contact]) {
        let (groups, members) = try await store.linkGroupsAndMembers(containing: identifiers, known: [], keys: keys)
        var linked = Set<String>()
        for group in groups {
            linked.insert(group.identifier)
            linked.formUnion(group.members)
        }
        let unlinked = try await store.contacts(
            withIdentifiers: identifiers.filter { !linked.contains($0) }, keysToFetch: keys)
        return (groups, members, unlinked)
    }

    /// Replaces each linked contact by its unified contact.
    package static func unify(_ contacts: [Contact], keys: ContactKeySet, in store: some ContactStore) async throws
        -> [Contact]
    {
        guard !contacts.isEmpty else { return contacts }
        // Every contact is at hand, so each position comes back: unified, or as it was.
        let unified = try await unify(contacts.map { ($0.identifier, Optional($0)) }, keys: keys, in: store)
        return zip(contacts, unified).map { $1 ?? $0 }
    }

    /// Entries, each replaced by its unified contact when linked: contacts at hand, and identifiers alone (`nil`
    /// contact: the name-preferred members a merged page's second page found), whose unified contacts come from the
    /// members read anyway, not from a read of their own. `nil` where a contact was deleted in between.
    private static func unify(
        _ entries: [(identifier: String, contact: Contact?)], keys: ContactKeySet, in store: some ContactStore
    ) async throws -> [Contact?] {
        let identifiers = entries.map(\.identifier)
        // Contacts read with every key synthesis reads serve as members as they are.
        var known: [String: Contact] = [:]
        if pageServesMembers(keys) {
            for case let contact? in entries.map(\.contact) { known[contact.identifier] = contact }
        }
        let (groups, read) = try await store.linkGroupsAndMembers(
            containing: identifiers, known: Set(known.keys), keys: keys)
        let members = read.merging(known) { read, _ in read }
        var groupOf: [String: Int] = [:]
        for (index, group) in groups.enumerated() { for member in group.members { groupOf[member] = index } }
        // An identifier alone that no group holds any more (unlinked in between) is read as it is.
        let unlinked = identifiers.indices.filter { entries[$0].contact == nil && groupOf[identifiers[$0]] == nil }
        var loaded: [String: Contact] = [:]
        for chunk in unlinked.map({ identifiers[$0] }).chunked(StoreLimits.pageSize) {
            for contact in try await store.contacts(withIdentifiers: Array(chunk), keysToFetch: keys) {
                loaded[contact.identifier] = contact
            }
        }
        var synthesized = [Contact?](repeating: nil, count: groups.count)
        return identifiers.indices.map { position in
            guard let index = groupOf[identifiers[position]] else {
                return entries[position].contact ?? loaded[identifiers[position]]
            }
            let contact = synthesized[index] ?? UnifiedContact.synthesize(groups[index], members: members, keys: keys)
            synthesized[index] = contact
            return contact
        }
    }

    /// ``ContactStore/linkGroupsAndMembers(containing:known:keys:)`` in two steps, over any backend: the groups, then
    /// the members not known.
    package static func linkGroupsAndMembers(
        containing identifiers: [String], known: Set<String>, keys: ContactKeySet, in store: some ContactStore
    ) async throws -> (groups: [LinkGroup], members: [String: Contact]) {
        let groups = try await store.linkGroups(containing: identifiers)
        let missing = groups.flatMap(\.members).filter { !known.contains($0) }
        return (groups, try await read(missing, keys: keys, in: store))
    }

    /// Whether contacts read with `keys` hold all that synthesis reads of a member, so a page's own members need
    /// no second read.
    package static func pageServesMembers(_ keys: ContactKeySet) -> Bool {
        UnifiedContact.memberKeys(for: keys) == keys
    }

    /// `contacts` with the one at each position that `groupAt` places in a group (its index in `groups`) replaced
    /// by that group's unified contact, synthesized from `members` once per group.
    package static func replacing(
        _ contacts: [Contact], keys: ContactKeySet, groups: [LinkGroup], members: [String: Contact],
        groupAt: (Int) -> Int?
    ) -> [Contact] {
        var unified = [Contact?](repeating: nil, count: groups.count)
        var result = contacts
        for position in result.indices {
            guard let index = groupAt(position), groups.indices.contains(index) else { continue }
            let contact = unified[index] ?? UnifiedContact.synthesize(groups[index], members: members, keys: keys)
            unified[index] = contact
            result[position] = contact
        }
        return result
    }

    /// The unified contacts of `groups`, by unified identifier, from their members.
    private static func synthesized(_ groups: [LinkGroup], members: [String: Contact], keys: ContactKeySet)
        -> [String: Contact]
    {
        var result: [String: Contact] = [:]
        for group in groups {
            result[group.identifier] = UnifiedContact.synthesize(group, members: members, keys: keys)
        }
        return result
    }

    /// Members by identifier, read with the keys synthesis needs.
    private static func read(_ identifiers: [String], keys: ContactKeySet, in store: some ContactStore) async throws
        -> [String: Contact]
    {
        var members: [String: Contact] = [:]
        for chunk in identifiers.chunked(StoreLimits.pageSize) {
            for contact in try await store.contacts(
                withIdentifiers: Array(chunk), keysToFetch: UnifiedContact.memberKeys(for: keys))
            {
                members[contact.identifier] = contact
            }
        }
        return members
    }

    /// A filter's identifiers with each unified contact (named by its own identifier or a member's) replaced by its
    /// name-preferred member.
    private static func representatives(of identifiers: [String], in store: some ContactStore) async throws
        -> [String]
    {
        var groupOf: [String: LinkGroup] = [:]
        for group in try await store.linkGroups(containing: identifiers) {
            groupOf[group.identifier] = group
            for member in group.members { groupOf[member] = group }
        }
        var seen = Set<String>()
        return identifiers.map { groupOf[$0]?.preferredForName ?? $0 }.filter { seen.insert($0).inserted }
    }

    /// The name-preferred members of the unified contacts that meet `predicate` as unified contacts
    /// (``ContactPredicate/LinkedMembers/standingForOthersMatching(_:)``).
    private static func standingMembers(meeting predicate: ContactPredicate) -> ContactPredicate {
        var others = predicate
        others.linkedMembers = nil
        var standing = ContactPredicate()
        standing.linkedMembers = .standingForOthersMatching(others)
        return standing
    }

    /// How many contacts the unified search finds: it reads the name-preferred members of the unified contacts
    /// that match (at most ``StoreLimits/unifiedSearchLinkedMatches``), which a page does not need to.
    private static func totalCount(_ predicate: ContactPredicate, in store: some ContactStore) async throws -> Int {
        let own = try await store.contactCount(matching: predicate)
        guard !predicate.memberConditions.isEmpty else { return own }
        let standing = try await store.contactIdentifiers(
            matching: standingMembers(meeting: predicate), limit: StoreLimits.unifiedSearchLinkedMatches + 1)
        if standing.count > StoreLimits.unifiedSearchLinkedMatches {
            throw StoreError(
                .predicateInvalid,
                "More than \(StoreLimits.unifiedSearchLinkedMatches) unified contacts match; narrow the search or "
                    + "fetch without unification")
        }
        // A unified contact whose name-preferred member meets the whole predicate is counted once, with the others.
        var alsoMatching = 0
        for chunk in standing.chunked(StoreLimits.pageSize) {
            var counted = predicate
            counted.identifiers = Array(chunk)
            alsoMatching += try await store.contactCount(matching: counted)
        }
        return own + standing.count - alsoMatching
    }
}

extension ContactStore {
    public func linkGroupsAndMembers(containing identifiers: [String], known: Set<String>, keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact])
    {
        try await UnifiedFetch.linkGroupsAndMembers(containing: identifiers, known: known, keys: keys, in: self)
    }

    public func contactsToUnify(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet)
        async throws -> (groups: [LinkGroup], members: [String: Contact], unlinked: [Contact])
    {
        try await UnifiedFetch.contactsToUnify(withIdentifiers: identifiers, keysToFetch: keys, in: self)
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements. Inlinable, so each element type gets its own
    /// specialisation: the generic one cost a page read as much as its SQL statement did.
    @inlinable
    package func chunked(_ size: Int) -> [ArraySlice<Element>] {
        if count <= size { return isEmpty ? [] : [self[...]] }
        return stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
