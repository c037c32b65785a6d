import CarnetStore
import GRDB

/// Runs one ``ContactFetchRequest`` inside a read transaction.
struct ContactFetch {
    var request: ContactFetchRequest
    /// The sort order with `userDefault` resolved.
    let order: ContactSortOrder
    /// `false` leaves the page's labeled values and images out, for ``LinkRows/unify(_:_:keys:servesMembers:)`` to
    /// read with its hidden members' in one statement.
    var readsRelated = true

    func run(_ db: Database) throws -> ContactPage {
        guard let predicate = try ContactQuery.withoutNeedlessLinkCondition(request.predicate, db) else {
            return ContactPage(
                contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false,
                totalCount: request.includeTotalCount ? 0 : nil)
        }
        var fetch = self
        fetch.request.predicate = predicate
        return try fetch.runPlain(db)
    }

    /// A unified name search's page, its contacts not unified yet; `nil` when the ordered search cannot serve it.
    func unifiedNameSearch(_ db: Database) throws -> ContactPage? {
        guard var search = OrderedNameSearch(unified: request, order: order) else { return nil }
        search.readsRelated = readsRelated
        let (count, cursor, backward) = try paging()
        return try search.run(db, count: count, cursor: cursor, backward: backward)
    }

    private func paging() throws -> (count: Int, cursor: ContactCursor?, backward: Bool) {
        let (count, cursorText, backward): (Int, String?, Bool) =
            switch request.page {
            case .first(let n, let after): (n, after, false)
            case .last(let n, let before): (n, before, true)
            }
        guard (1...StoreLimits.pageSize).contains(count) else {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        try ContactQuery.validate(request.predicate)
        return (count, try cursorText.map { try ContactCursor(encoded: $0, order: order) }, backward)
    }

    private func runPlain(_ db: Database) throws -> ContactPage {
        let (count, cursor, backward) = try paging()
        if var search = OrderedNameSearch(request, order: order) {
            search.readsRelated = readsRelated
            if let page = try search.run(db, count: count, cursor: cursor, backward: backward) { return page }
        }
        guard let filter = try ContactQuery.filter(request.predicate, db) else {
            return ContactPage(
                contacts: [], positions: [], hasNextPage: false, hasPreviousPage: false,
                totalCount: request.includeTotalCount ? 0 : nil)
        }
        let loader = ContactLoader(keys: request.keysToFetch)
        let sortColumn = ContactQuery.sortColumn(order)
        let sorted = order != .none
        var conditions = filter.conditions
        var arguments = filter.arguments
        if let cursor {
            let op = backward ? "<" : ">"
            if sorted {
                conditions.append("(\(sortColumn), c.id) \(op) (?, ?)")
                arguments += [cursor.sortKey, cursor.identifier]
            } else {
                conditions.append("c.rowid \(op) ?")
                arguments += [cursor.rowid]
            }
        }
        let direction = backward ? "DESC" : "ASC"
        let orderBy = sorted ? "\(sortColumn) \(direction), c.id \(direction)" : "c.rowid \(direction)"
        let whereSQL = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = """
            SELECT \(loader.selectSQL), \(sorted ? sortColumn : "''") FROM \(filter.from) \(whereSQL)
            ORDER BY \(orderBy) LIMIT ?
            """
        arguments += [count + 1]
        let statement = try db.cachedStatement(sql: sql)
        let rows = try SQLiteRows(statement, arguments: arguments)
        var contacts: [Contact] = []
        var rowids: [Int64] = []
        var positions: [ContactCursor] = []
        contacts.reserveCapacity(count + 1)
        let sortKeyIndex = Int32(ContactLoader.metadataCount + loader.columns.count)
        let containers = try ContactLoader.containerNames(db)
        while let columns = try rows.next() {
            let (rowid, contact) = loader.decode(columns, containers: containers)
            rowids.append(rowid)
            contacts.append(contact)
            positions.append(
                ContactCursor(
                    order: order, rowid: rowid, identifier: contact.identifier,
                    sortKey: sorted ? columns.string(sortKeyIndex) : ""))
        }
        let hasMore = contacts.count > count
        if hasMore {
            contacts.removeLast()
            rowids.removeLast()
            positions.removeLast()
        }
        if backward {
            contacts.reverse()
            rowids.reverse()
            positions.reverse()
        }
        if readsRelated { try loader.loadRelated(db, rowids: rowids, into: &contacts) }
        var total: Int?
        if request.includeTotalCount { total = try ContactQuery.count(db, filter) }
        return ContactPage(
            contacts: contacts, positions: positions,
            hasNextPage: backward ? cursor != nil : hasMore,
            hasPreviousPage: backward ? hasMore : cursor != nil,
            totalCount: total)
    }
}
