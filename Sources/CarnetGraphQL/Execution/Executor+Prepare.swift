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
            let missing = Array(Set(contacts.map(\.identifier).filter { loads.groupsByContact[$0] == nil }))
            if !missing.isEmpty {
                let loaded = try await store.groups(ofContacts: missing)
                for id in missing { loads.groupsByContact[id] = loaded[id] ?? [] }
            }
            var seen = Set<String>()
            let groups = contacts.flatMap { loads.groupsByContact[$0.identifier] ?? [] }.filter {
                seen.insert($0.identifier).inserted
            }
            try await prepareGroups(groups, groupPlans.flatMap { $0.selection?.fields(for: "Group") ?? [] })
        }
        if fields.contains(where: { ContactField(rawValue: $0.code) == .container }) { try await loadContainers() }
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
            let members = try await store.members(
                ofGroups: ids, keysToFetch: KeyPlanning.keys(sub),
                sortOrder: Self.sortOrder(args(plan).string("sortOrder")),
                limit: first)
            loads.membersByPlan[plan.id] = members
            var seen = Set<String>()
            try await prepareContacts(members.values.flatMap { $0 }.filter { seen.insert($0.identifier).inserted }, sub)
        }
        if fields.contains(where: { GroupField(rawValue: $0.code) == .memberCount }) {
            let missing = ids.filter { loads.memberCounts[$0] == nil }
            for (id, count) in try await store.memberCounts(ofGroups: missing) { loads.memberCounts[id] = count }
        }
        if fields.contains(where: { GroupField(rawValue: $0.code) == .container }) { try await loadContainers() }
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
