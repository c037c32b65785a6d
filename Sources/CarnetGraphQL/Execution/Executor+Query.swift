import CarnetStore

extension Executor {
    /// Resolves a root field of `Query` and writes its value (the key is written).
    func queryField(_ plan: FieldPlan) async throws -> Bool {
        guard let code = QueryField(rawValue: plan.code) else {
            try await writeIntrospection(plan)
            return true
        }
        return try await resolve(code, plan)
    }

    /// Resolves a `Query` field (or an address book's field of the same name, on the book's store).
    func resolve(_ code: QueryField, _ plan: FieldPlan) async throws -> Bool {
        let selection = plan.selection
        switch code {
        case .contact:
            let fields = selection?.fields(for: "Contact") ?? []
            let found = try await store.contacts(
                withIdentifiers: [args(plan).string("id") ?? ""], keysToFetch: KeyPlanning.keys(fields),
                unify: args(plan).bool("unify") ?? true)
            guard let contact = found.first else { return nullValue() }
            try await prepareContacts([contact], fields)
            return nested(plan) { writeContact(contact, fields) }
        case .node:
            return try await writeNode(args(plan).string("id") ?? "", plan)
        case .contacts:
            let page = try await store.contacts(try contactFetchRequest(plan))
            try await prepareContacts(
                page.contacts,
                KeyPlanning.contactFields(under: selection?.allFields ?? [], path: ["edges", "node"])
                    + KeyPlanning.contactFields(under: selection?.allFields ?? [], path: ["nodes"]))
            return nested(plan) { writeConnection(page, selection?.fields(for: "ContactConnection") ?? []) }
        case .group:
            guard let group = try await store.groups(withIdentifiers: [args(plan).string("id") ?? ""]).first else {
                return nullValue()
            }
            let fields = selection?.fields(for: "Group") ?? []
            try await prepareGroups([group], fields)
            return nested(plan) { writeGroup(group, fields) }
        case .groups:
            let groups = try await store.groups(inContainer: args(plan).string("containerId"))
            let fields = selection?.fields(for: "Group") ?? []
            try admitNodes(groups.count)
            try await prepareGroups(groups, fields)
            return nested(plan) { list(groups, plan) { writeGroup($0, fields) } }
        case .container:
            guard let container = try await store.containers(withIdentifiers: [args(plan).string("id") ?? ""]).first
            else {
                return nullValue()
            }
            return nested(plan) { writeContainer(container, selection?.fields(for: "Container") ?? []) }
        case .containers:
            let containers = try await store.containers()
            try admitNodes(containers.count)
            return nested(plan) {
                list(containers, plan) { writeContainer($0, selection?.fields(for: "Container") ?? []) }
            }
        case .defaultContainer:
            let container = try await store.defaultContainer()
            return nested(plan) { writeContainer(container, selection?.fields(for: "Container") ?? []) }
        case .changeHistory:
            let page = try await fetchHistory(
                plan, since: args(plan).string("since"), limit: args(plan).int("first") ?? 1000)
            return nested(plan) { writeHistoryPage(page, selection?.fields(for: "ChangeHistoryPage") ?? []) }
        case .currentHistoryToken:
            writer.string(try await store.currentHistoryToken())
            return true
        case .viewer:
            let viewer = try requireViewer()
            guard let principal = try await viewer.catalog.principal(id: viewer.principalID) else {
                throw FieldError(message: "The principal is gone.", code: .forbidden)
            }
            return nested(plan) { writePrincipal(principal, selection?.fields(for: "Principal") ?? []) }
        case .addressBooks:
            let viewer = try requireViewer()
            return try await writeBooks(try await viewer.visibleBooks(), viewer, plan)
        case .addressBook:
            let viewer = try requireViewer()
            guard let visible = try await viewer.book(id: args(plan).string("id") ?? "") else { return nullValue() }
            return try await inBook(visible, viewer) { try await writeBook(visible, viewer, plan) }
        case .principals:
            return try await writePrincipals(plan)
        case .duplicateCandidates:
            return try await resolveDuplicateCandidates(plan)
        case .changeHistoryRetention:
            let oldest = try await store.oldestValidHistoryToken()
            let seconds = store.configuration.historyRetentionSeconds
            return nested(plan) {
                writeRetention(seconds: seconds, oldest: oldest, selection?.fields(for: "ChangeHistoryRetention") ?? [])
            }
        }
    }

    /// Writes `null` for a nullable field with no value.
    func nullValue() -> Bool {
        writer.null()
        return true
    }

    /// Runs a root field's writer with the path already set.
    func nested(_ plan: FieldPlan, _ body: () -> Bool) -> Bool { body() }

    /// A record of any kind by identifier.
    private func writeNode(_ id: String, _ plan: FieldPlan) async throws -> Bool {
        let contactFields = plan.selection?.fields(for: "Contact") ?? []
        if let contact = try await store.contacts(
            withIdentifiers: [id], keysToFetch: KeyPlanning.keys(contactFields), unify: args(plan).bool("unify") ?? true
        ).first {
            try await prepareContacts([contact], contactFields)
            return writeContact(contact, contactFields)
        }
        if let group = try await store.groups(withIdentifiers: [id]).first {
            let fields = plan.selection?.fields(for: "Group") ?? []
            try await prepareGroups([group], fields)
            return writeGroup(group, fields)
        }
        if let container = try await store.containers(withIdentifiers: [id]).first {
            return writeContainer(container, plan.selection?.fields(for: "Container") ?? [])
        }
        return nullValue()
    }

    /// The store request for `contacts(filter:sortOrder:first:after:last:before:)`.
    private func contactFetchRequest(_ plan: FieldPlan) throws -> ContactFetchRequest {
        let first = args(plan).int("first")
        let last = args(plan).int("last")
        if first != nil && last != nil {
            throw FieldError.badUserInput("Give either `first` or `last`, not both.")
        }
        for size in [first, last].compactMap({ $0 }) where !(1...StoreLimits.pageSize).contains(size) {
            throw FieldError.badUserInput("Page sizes go from 1 to \(StoreLimits.pageSize); got \(size).")
        }
        // The store applies one cursor in one direction. Rather than drop a cursor the client sent (the Relay
        // algorithm would apply both), the combinations it cannot apply are refused.
        let after = args(plan).string("after")
        let before = args(plan).string("before")
        if before != nil && last == nil {
            throw FieldError.badUserInput("`before` goes with `last`; give `last` (and no `after`) to page backwards.")
        }
        if after != nil && last != nil {
            throw FieldError.badUserInput("`after` goes with `first`; give `before` to page backwards with `last`.")
        }
        let page: PageRequest = last.map { .last($0, before: before) } ?? .first(first ?? 100, after: after)
        let filter = args(plan)["filter"]?.objectValue ?? [:]
        let predicate = ContactPredicate(
            matchingName: filter["name"]?.stringValue, matchingEmailAddress: filter["email"]?.stringValue,
            matchingPhoneNumber: filter["phone"]?.stringValue,
            identifiers: filter["ids"]?.arrayValue?.compactMap(\.stringValue),
            groupIdentifier: filter["groupId"]?.stringValue, containerIdentifier: filter["containerId"]?.stringValue)
        let contactFields =
            KeyPlanning.contactFields(under: plan.selection?.allFields ?? [], path: ["edges", "node"])
            + KeyPlanning.contactFields(under: plan.selection?.allFields ?? [], path: ["nodes"])
        let wantsTotal = plan.selection?.allFields.contains { $0.name == "totalCount" } ?? false
        var request = ContactFetchRequest(
            predicate: predicate, keysToFetch: KeyPlanning.keys(contactFields),
            sortOrder: Self.sortOrder(args(plan).string("sortOrder")),
            page: page, includeTotalCount: wantsTotal)
        request.unifyResults = args(plan).bool("unify") ?? true
        return request
    }

    /// A history page with the contacts and groups its events carry, loaded for the selection. `exclusionGuard` says
    /// what a subscription's author exclusion must still deliver (see ``ExclusionGuard``).
    func fetchHistory(_ plan: FieldPlan, since: String?, limit: Int, exclusionGuard: ExclusionGuard = ExclusionGuard())
        async throws
        -> ChangeHistoryPage
    {
        let eventFields = KeyPlanning.eventContactFields(plan)
        var request = ChangeHistoryFetchRequest(
            startingToken: since, includeGroupChanges: args(plan).bool("includeGroupChanges") ?? false,
            excludedAuthors: Set(args(plan).strings("excludedAuthors")), contactKeys: KeyPlanning.keys(eventFields),
            limit: limit)
        request.unifyResults = args(plan).bool("unifyResults") ?? true
        request.exclusionGuard = exclusionGuard
        let page = try await store.changeHistory(request)
        // Lazily: the contacts are copied only if the selection needs their groups or container.
        try await prepareContacts(page.events.lazy.compactMap(\.contact), eventFields)
        let groupFields = KeyPlanning.fields(
            under: plan.selection?.allFields ?? [], path: ["events", "group"], type: "Group")
        if !groupFields.isEmpty {
            // By index: mapping over the events would copy every one of them, a retain per reference it holds.
            var groups: [Group] = []
            for index in page.events.indices {
                if let group = page.events[index].group { groups.append(group) }
            }
            try await prepareGroups(groups, groupFields)
        }
        return page
    }
}

extension KeyPlanning {
    /// The `Contact` fields selected under `events { ... on XEvent { contact { ... } } }`.
    static func eventContactFields(_ plan: FieldPlan) -> [FieldPlan] {
        fields(under: plan.selection?.allFields ?? [], path: ["events", "contact"], type: "Contact")
    }
}
