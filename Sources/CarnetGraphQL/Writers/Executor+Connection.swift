import CarnetStore

/// What the Relay connection writer needs of a page, whatever its nodes are.
struct ConnectionPage {
    /// The GraphQL type names: `ContactConnection`, its edge and its node.
    var typeName: String
    var edgeTypeName: String
    var nodeTypeName: String
    var count: Int
    var totalCount: Int
    var hasNextPage: Bool
    var hasPreviousPage: Bool
    /// The cursor of the node at an index of the page.
    var cursor: (Int) -> String
}

extension Executor {
    /// Writes a `ContactConnection` for a fetched page.
    func writeConnection(_ page: ContactPage, _ fields: [FieldPlan]) -> Bool {
        let connection = ConnectionPage(
            typeName: "ContactConnection", edgeTypeName: "ContactEdge", nodeTypeName: "Contact",
            count: page.contacts.count, totalCount: page.totalCount ?? page.contacts.count,
            hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, cursor: page.cursor(at:))
        return writeConnection(connection, fields) { writeContact(page.contacts[$0], $1) }
    }

    /// Writes a connection (`edges`, `nodes`, `pageInfo`, `totalCount`); `node` writes the node at an index with
    /// its selection.
    func writeConnection(
        _ page: ConnectionPage, _ fields: [FieldPlan], node: (Int, [FieldPlan]) -> Bool
    ) -> Bool {
        writer.beginObject()
        // A page counts once against the node limit, whether its records come as edges, nodes or both.
        var admitted = false
        let admit = { () throws(FieldError) in
            if !admitted { try self.admitNodes(page.count) }
            admitted = true
        }
        for plan in fields {
            switch ConnectionField(rawValue: plan.code) {
            case .edges?:
                let edgeFields = plan.selection?.fields(for: page.edgeTypeName) ?? []
                guard
                    field(
                        plan,
                        {
                            try admit()
                            return list(count: page.count, plan) { writeEdge(page, $0, edgeFields, node) }
                        })
                else { return false }
            case .nodes?:
                let sub = plan.selection?.fields(for: page.nodeTypeName) ?? []
                guard
                    field(
                        plan,
                        {
                            try admit()
                            return list(count: page.count, plan) { node($0, sub) }
                        })
                else { return false }
            case .pageInfo?:
                let sub = plan.selection?.fields(for: "PageInfo") ?? []
                guard field(plan, { writePageInfo(page, sub) }) else { return false }
            case .totalCount?: leaf(plan) { $0.int(page.totalCount) }
            case nil: guard otherField(plan, page.typeName) else { return false }
            }
        }
        writer.endObject()
        return true
    }

    private func writeEdge(
        _ page: ConnectionPage, _ index: Int, _ fields: [FieldPlan], _ node: (Int, [FieldPlan]) -> Bool
    ) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch EdgeField(rawValue: plan.code) {
            case .cursor?: leaf(plan) { $0.string(page.cursor(index)) }
            case .node?:
                let sub = plan.selection?.fields(for: page.nodeTypeName) ?? []
                guard field(plan, { node(index, sub) }) else { return false }
            case nil: guard otherField(plan, page.edgeTypeName) else { return false }
            }
        }
        writer.endObject()
        return true
    }

    private func writePageInfo(_ page: ConnectionPage, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch PageInfoField(rawValue: plan.code) {
            case .hasNextPage?: leaf(plan) { $0.bool(page.hasNextPage) }
            case .hasPreviousPage?: leaf(plan) { $0.bool(page.hasPreviousPage) }
            case .startCursor?: leaf(plan) { writer in page.count == 0 ? writer.null() : writer.string(page.cursor(0)) }
            case .endCursor?:
                leaf(plan) { writer in
                    page.count == 0 ? writer.null() : writer.string(page.cursor(page.count - 1))
                }
            case nil: guard otherField(plan, "PageInfo") else { return false }
            }
        }
        writer.endObject()
        return true
    }
}
