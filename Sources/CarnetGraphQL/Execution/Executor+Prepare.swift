import CarnetStore

extension Executor {
    /// Batch-loads what the selected fields of these contacts need: one store query per relation, then the same
    /// for the records those relations bring, level by level.
    func prepareContacts(_ contacts: some Collection<Contact>, _ fields: [FieldPlan]) async throws {
        guard !contacts.isEmpty else { return }
        try budget.check(context.isAbandoned)
        let groupPlans = fields.filter { ContactField(rawValue: $0.code) == .groups }
        // A vCard lists the contact's groups as CATEGORIES.
        let needsGroups = fields.contains { ContactField(rawValue: $0.code) == .vCard }
        if !groupPlans.isEmpty || needsGroups {
            let missing = Array(Set(contacts.filter { loads.groupsByContact[$0.identifier] == nil }.map(\.identifier)))
            if !missing.isEmpty {
                // A unified contact is in every group one of its members is in.
                let members = contacts.filter(\.isUnified).reduce(into: [String: [String]]()) {
                    $0[$1.identifier] = $1.linkedContactIdentifiers
                }
                let loaded = try await store.groups(ofContacts: missing + members.values.flatMap { $0 })
                for id in missing {
                    guard let linked = members[id] else {
                        loads.groupsByContact[id] = loaded[id] ?? []
                        continue
                    }
                    var seen = Set<String>()
                    loads.groupsByContact[id] = linked.flatMap { loaded[$0] ?? [] }
                        .filter { seen.insert($0.identifier).inserted }.sorted { $0.name < $1.name }
                }
            }
            var seen = Set<String>()
            let groups = contacts.flatMap { loads.groupsByContact[$0.identifier] ?? [] }.filter {
                seen.insert($0.identifier).inserted
            }
            try await prepareGroups(groups, groupPlans.flatMap { $0.selection?.fields(for: "Group") ?? [] })
        }
        if fields.contains(where: { ContactField(rawValue: $0.code) == .container }) { try await loadContainers() }
        let linkedPlans = fields.filter { ContactField(rawValue: $0.code) == .linkedContacts }
        if !linkedPlans.isEmpty { try await prepareLinked(contacts, linkedPlans) }
    }

    /// Loads `Contact.linkedContacts` for the contacts: a unified contact's members, an individual contact's
    /// unified contact's members.
    private func prepareLinked(_ contacts: some Collection<Contact>, _ plans: [FieldPlan]) async throws {
        let sub = plans.flatMap { $0.selection?.fields(for: "Contact") ?? [] }
        let unknown = contacts.filter { !$0.isUnified && loads.linkMembersByContact[$0.identifier] == nil }
        if !unknown.isEmpty {
            for contact in unknown { loads.linkMembersByContact[contact.identifier] = [] }
            for group in try await store.linkGroups(containing: unknown.map(\.identifier)) {
                for member in group.members { loads.linkMembersByContact[member] = group.members }
            }
        }
        var membersOf: [String: [String]] = [:]
        for contact in contacts {
            membersOf[contact.identifier] =
                contact.isUnified ? contact.linkedContactIdentifiers : loads.linkMembersByContact[contact.identifier]
        }
        let wanted = Set(membersOf.values.flatMap { $0 })
        let loaded =
            wanted.isEmpty
            ? [] : try await store.contacts(withIdentifiers: Array(wanted), keysToFetch: KeyPlanning.keys(sub))
        let byID = Dictionary(uniqueKeysWithValues: loaded.map { ($0.identifier, $0) })
        for plan in plans {
            for contact in contacts {
                loads.linkedByPlan[plan.id, default: [:]][contact.identifier] =
                    (membersOf[contact.identifier] ?? []).compactMap { byID[$0] }
            }
        }
        try await prepareContacts(loaded, sub)
    }

    func prepareGroups(_ groups: [Group], _ fields: [FieldPlan]) async throws {
        guard !groups.isEmpty else { return }
        try budget.check(context.isAbandoned)
        let ids = groups.map(\.identifier)
        for plan in fields where GroupField(rawValue: plan.code) == .members && loads.membersByPlan[plan.id] == nil {
            let sub = plan.selection?.fields(for: "Contact") ?? []
            let first = args(plan).int("first") ?? 100
            guard (1...StoreLimits.pageSize).contains(first) else {
                loads.failedLoads[plan.id] = FieldError.badUserInput(
                    "Page sizes go from 1 to \(StoreLimits.pageSize); got \(first).")
                continue
            }
            // Groups are not paged: the planner counted them as ten, and a book may have thousands. Most hold far
            // fewer members than a page: past the bound, what they hold decides.
            if !nodeLoadFits(parents: ids.count, perParent: first) {
                try await loadMemberCounts(ids)
                let members = ids.reduce(0) { $0 + min(loads.memberCounts[$1] ?? 0, first) }
                guard nodeLoadFits(parents: 1, perParent: members) else {
                    loads.failedLoads[plan.id] = Self.nodesExceeded(service.limits.maxNodes)
                    continue
                }
            }
            let members = try await store.members(
                ofGroups: ids, keysToFetch: KeyPlanning.keys(sub),
                sortOrder: Self.sortOrder(args(plan).string("sortOrder")),
                limit: first)
            loads.membersByPlan[plan.id] = members
            var seen = Set<String>()
            try await prepareContacts(members.values.flatMap { $0 }.filter { seen.insert($0.identifier).inserted }, sub)
        }
        if fields.contains(where: { GroupField(rawValue: $0.code) == .memberCount }) { try await loadMemberCounts(ids) }
        if fields.contains(where: { GroupField(rawValue: $0.code) == .container }) { try await loadContainers() }
    }

    private func loadMemberCounts(_ groups: [String]) async throws {
        let missing = groups.filter { loads.memberCounts[$0] == nil }
        guard !missing.isEmpty else { return }
        for (id, count) in try await store.memberCounts(ofGroups: missing) { loads.memberCounts[id] = count }
    }

    /// Containers are few: they are loaded whole, once per request.
    func loadContainers() async throws {
        guard loads.containersByID == nil else { return }
        loads.containersByID = Dictionary(
            uniqueKeysWithValues: try await store.containers().map { ($0.identifier, $0) })
    }

    static func sortOrder(_ value: String?) -> ContactSortOrder {
        switch value {
        case "NONE": .none
        case "GIVEN_NAME": .givenName
        case "FAMILY_NAME": .familyName
        default: .userDefault
        }
    }
}
