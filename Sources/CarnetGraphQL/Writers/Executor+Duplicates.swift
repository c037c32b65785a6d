import CarnetStore

extension Executor {
    /// `duplicateCandidates(first:after:)`: the store's page, then the candidates' contacts in one load, with the
    /// keys their selection reads only.
    func resolveDuplicateCandidates(_ plan: FieldPlan) async throws -> Bool {
        let first = args(plan).int("first") ?? 100
        guard (1...StoreLimits.pageSize).contains(first) else {
            throw FieldError.badUserInput("Page sizes go from 1 to \(StoreLimits.pageSize); got \(first).")
        }
        try admitBookScan()
        let page = try await store.duplicateCandidates(
            DuplicateCandidateRequest(first: first, after: args(plan).string("after")))
        let all = plan.selection?.allFields ?? []
        let contactFields =
            KeyPlanning.contactFields(under: all, path: ["edges", "node", "contacts"])
            + KeyPlanning.contactFields(under: all, path: ["nodes", "contacts"])
        var contacts: [String: Contact] = [:]
        if Self.selects(all, path: ["edges", "node", "contacts"]) || Self.selects(all, path: ["nodes", "contacts"]) {
            var seen = Set<String>()
            let identifiers = page.candidates.flatMap(\.identifiers).filter { seen.insert($0).inserted }
            let loaded = try await store.contacts(
                withIdentifiers: identifiers, keysToFetch: KeyPlanning.keys(contactFields))
            try await prepareContacts(loaded, contactFields)
            for contact in loaded { contacts[contact.identifier] = contact }
        }
        let fields = plan.selection?.fields(for: "DuplicateCandidateConnection") ?? []
        return nested(plan) { writeDuplicateConnection(page, contacts, fields) }
    }

    /// Whether a field is selected along `path` (any alias).
    private static func selects(_ plans: [FieldPlan], path: [String]) -> Bool {
        plans.contains { plan in
            guard plan.name == path.first else { return false }
            return path.count == 1 || selects(plan.selection?.allFields ?? [], path: Array(path.dropFirst()))
        }
    }

    private func writeDuplicateConnection(
        _ page: DuplicateCandidatePage, _ contacts: [String: Contact], _ fields: [FieldPlan]
    ) -> Bool {
        let connection = ConnectionPage(
            typeName: "DuplicateCandidateConnection", edgeTypeName: "DuplicateCandidateEdge",
            nodeTypeName: "DuplicateCandidate", count: page.candidates.count, totalCount: page.totalCount,
            hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, cursor: page.cursor(at:))
        return writeConnection(connection, fields) { writeDuplicate(page.candidates[$0], contacts, $1) }
    }

    private func writeDuplicate(
        _ candidate: DuplicateCandidate, _ contacts: [String: Contact], _ fields: [FieldPlan]
    ) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch DuplicateCandidateField(rawValue: plan.code) {
            case .contacts?:
                // A contact deleted between the two reads is left out rather than failing the page.
                let pair = candidate.identifiers.compactMap { contacts[$0] }
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard field(plan, { list(count: pair.count, plan) { writeContact(pair[$0], sub) } }) else {
                    return false
                }
            case .score?: leaf(plan) { $0.double(candidate.score) }
            case .reasons?:
                let sub = plan.selection?.fields(for: "DuplicateReason") ?? []
                guard
                    field(
                        plan,
                        {
                            list(count: candidate.reasons.count, plan) {
                                writeDuplicateReason(candidate.reasons[$0], sub)
                            }
                        })
                else { return false }
            case nil: guard otherField(plan, "DuplicateCandidate") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    private func writeDuplicateReason(_ reason: DuplicateReason, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch DuplicateReasonField(rawValue: plan.code) {
            case .kind?: leaf(plan) { $0.string(reason.kind.rawValue) }
            case .value?: leaf(plan) { $0.string(reason.value) }
            case nil: guard otherField(plan, "DuplicateReason") else { return false }
            }
        }
        writer.endObject()
        return true
    }
}
