import CarnetStore

extension Executor {
    /// `duplicateCandidates(first:after:)`: the store's page, then the candidates' contacts in one load, with the
    /// keys their selection reads only.
    func resolveDuplicateCandidates(_ plan: FieldPlan) async throws -> Bool {
        let first = args(plan).int("first") ?? 100
        guard (1...StoreLimits.pageSize).contains(first) else {
            throw FieldError.badUserInput("Page sizes go from 1 to \(StoreLimits.pageSize); got \(first).")
        }
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
        let candidates = page.candidates
        writer.beginObject()
        for plan in fields {
            switch ConnectionField(rawValue: plan.code) {
            case .edges?:
                let edgeFields = plan.selection?.fields(for: "DuplicateCandidateEdge") ?? []
                guard
                    field(
                        plan,
                        { list(count: candidates.count, plan) { writeDuplicateEdge(page, $0, contacts, edgeFields) } })
                else { return false }
            case .nodes?:
                let sub = plan.selection?.fields(for: "DuplicateCandidate") ?? []
                guard
                    field(
                        plan, { list(count: candidates.count, plan) { writeDuplicate(candidates[$0], contacts, sub) } })
                else { return false }
            case .pageInfo?:
                let sub = plan.selection?.fields(for: "PageInfo") ?? []
                guard field(plan, { writeDuplicatePageInfo(page, sub) }) else { return false }
            case .totalCount?: leaf(plan) { $0.int(page.totalCount) }
            case nil: _ = typename(plan, "DuplicateCandidateConnection")
            }
        }
        writer.endObject()
        return true
    }

    private func writeDuplicateEdge(
        _ page: DuplicateCandidatePage, _ index: Int, _ contacts: [String: Contact], _ fields: [FieldPlan]
    ) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch EdgeField(rawValue: plan.code) {
            case .cursor?: leaf(plan) { $0.string(page.cursor(at: index)) }
            case .node?:
                let sub = plan.selection?.fields(for: "DuplicateCandidate") ?? []
                guard field(plan, { writeDuplicate(page.candidates[index], contacts, sub) }) else { return false }
            case nil: _ = typename(plan, "DuplicateCandidateEdge")
            }
        }
        writer.endObject()
        return true
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
            case nil: _ = typename(plan, "DuplicateCandidate")
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
            case nil: _ = typename(plan, "DuplicateReason")
            }
        }
        writer.endObject()
        return true
    }

    private func writeDuplicatePageInfo(_ page: DuplicateCandidatePage, _ fields: [FieldPlan]) -> Bool {
        let count = page.candidates.count
        writer.beginObject()
        for plan in fields {
            switch PageInfoField(rawValue: plan.code) {
            case .hasNextPage?: leaf(plan) { $0.bool(page.hasNextPage) }
            case .hasPreviousPage?: leaf(plan) { $0.bool(page.hasPreviousPage) }
            case .startCursor?: leaf(plan) { writer in count == 0 ? writer.null() : writer.string(page.cursor(at: 0)) }
            case .endCursor?:
                leaf(plan) { writer in count == 0 ? writer.null() : writer.string(page.cursor(at: count - 1)) }
            case nil: _ = typename(plan, "PageInfo")
            }
        }
        writer.endObject()
        return true
    }
}
