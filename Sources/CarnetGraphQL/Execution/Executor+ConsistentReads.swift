import CarnetStore

extension Executor {
    /// Runs a query with its reads of each book in one state of it (``ContactStore/withConsistentReads(_:)``):
    /// a group's `memberCount` and `members`, a page and its `totalCount`, two root fields, all agree although
    /// saves commit meanwhile. A query that reads its book once is one state already and runs as it is.
    func runQuery(_ fields: [FieldPlan]) async -> [UInt8] {
        guard Self.readsMoreThanOnce(fields) else { return await run(fields) }
        consistentReads = true
        var body: [UInt8]?
        do {
            try await store.withConsistentReads { body = await run(fields) }
        } catch {
            // Only the snapshot can fail here (`run` throws nothing), before the query ran: a closed store. The
            // query then runs without it, each field answering with the store's error, never an empty response.
        }
        if let body { return body }
        return await run(fields)
    }

    /// Whether a query may read its book more than once: all but a lone field that is one read (a contact by
    /// identifier without its relations, a history page, a token, containers).
    static func readsMoreThanOnce(_ fields: [FieldPlan]) -> Bool {
        // Introspection, `__typename` and the catalog's fields read no book: a query of them alone holds no snapshot.
        let fields = fields.filter { field in
            switch QueryField(rawValue: field.code) {
            case _ where field.isTypename, nil, .viewer, .principals: false
            default: true
            }
        }
        guard fields.count == 1, let field = fields.first, let root = QueryField(rawValue: field.code) else {
            return fields.count > 1
        }
        return readsMoreThanOnce(root, field)
    }

    /// Whether one root field (or one of an address book's fields that mirror them) may read its book more than
    /// once.
    private static func readsMoreThanOnce(_ root: QueryField, _ field: FieldPlan) -> Bool {
        switch root {
        case .contact:
            return readsRelations(field.selection?.fields(for: "Contact") ?? [])
        case .changeHistory:
            return historyReadsMoreThanOnce(field)
        case .addressBook:
            // Its own fields come from the catalog; what it reads of the book is its root-like fields. One book,
            // so one field that reads once is one state, as at the root (a contact by id in a named book).
            let nested = (field.selection?.fields(for: "AddressBook") ?? []).compactMap { sub in
                AddressBookField(rawValue: sub.code)?.rootField.map { (sub, $0) }
            }
            guard nested.count == 1, let (sub, nestedRoot) = nested.first else { return nested.count > 1 }
            return readsMoreThanOnce(nestedRoot, sub)
        case .currentHistoryToken, .changeHistoryRetention, .container, .containers, .defaultContainer, .viewer,
            .principals:
            return false
        case .node, .contacts, .group, .groups, .addressBooks, .duplicateCandidates:
            return true
        }
    }

    /// Whether a history page's selection reads more than the page: its contacts' groups, links, container or
    /// vCard, or its groups. A unified page showed a member at its revision before a link and its
    /// `linkedContacts` after it, read once the link had committed (an outside sync tester's find).
    static func historyReadsMoreThanOnce(_ field: FieldPlan) -> Bool {
        readsRelations(KeyPlanning.eventContactFields(field))
            || !KeyPlanning.fields(under: field.selection?.allFields ?? [], path: ["events", "group"], type: "Group")
                .isEmpty
    }

    /// Whether these `Contact` fields read beyond the contact: its groups, links, container or vCard.
    private static func readsRelations(_ fields: [FieldPlan]) -> Bool {
        fields.contains { field in
            switch ContactField(rawValue: field.code) {
            case .groups, .linkedContacts, .container, .vCard: true
            default: false
            }
        }
    }
}
