import CarnetStore

extension Executor {
    /// Writes a `ContactConnection` for a fetched page.
    func writeConnection(_ page: ContactPage, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch ConnectionField(rawValue: plan.code) {
            case .edges?:
                let edgeFields = plan.selection?.fields(for: "ContactEdge") ?? []
                guard field(plan, { list(count: page.contacts.count, plan) { writeEdge(page, $0, edgeFields) } }) else {
                    return false
                }
            case .nodes?:
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard field(plan, { list(count: page.contacts.count, plan) { writeContact(page.contacts[$0], sub) } })
                else {
                    return false
                }
            case .pageInfo?:
                let sub = plan.selection?.fields(for: "PageInfo") ?? []
                guard field(plan, { writePageInfo(page, sub) }) else { return false }
            case .totalCount?: leaf(plan) { $0.int(page.totalCount ?? page.contacts.count) }
            case nil: _ = typename(plan, "ContactConnection")
            }
        }
        writer.endObject()
        return true
    }

    private func writeEdge(_ page: ContactPage, _ index: Int, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch EdgeField(rawValue: plan.code) {
            case .cursor?: leaf(plan) { $0.string(page.cursor(at: index)) }
            case .node?:
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard field(plan, { writeContact(page.contacts[index], sub) }) else { return false }
            case nil: _ = typename(plan, "ContactEdge")
            }
        }
        writer.endObject()
        return true
    }

    private func writePageInfo(_ page: ContactPage, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch PageInfoField(rawValue: plan.code) {
            case .hasNextPage?: leaf(plan) { $0.bool(page.hasNextPage) }
            case .hasPreviousPage?: leaf(plan) { $0.bool(page.hasPreviousPage) }
            case .startCursor?:
                leaf(plan) { writer in page.contacts.isEmpty ? writer.null() : writer.string(page.cursor(at: 0)) }
            case .endCursor?:
                leaf(plan) { writer in
                    page.contacts.isEmpty ? writer.null() : writer.string(page.cursor(at: page.contacts.count - 1))
                }
            case nil: _ = typename(plan, "PageInfo")
            }
        }
        writer.endObject()
        return true
    }
}
