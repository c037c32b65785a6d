import CarnetStore
import GRDB

extension SQLiteStore {
    /// Fetches a page of contacts with the requested keys only.
    public func contacts(_ request: ContactFetchRequest) async throws -> ContactPage {
        try ContactCursor.check(request.page, storeID: storeID)
        var page: ContactPage
        if request.unifyResults {
            if let unified = try await unifiedPage(request) {
                page = unified
            } else {
                page = try await UnifiedFetch.contacts(request, in: self)
            }
        } else {
            page = try await read { db in
                let order = try Self.resolve(request.sortOrder, db)
                return try ContactFetch(request: request, order: order).run(db)
            }
        }
        page.storeID = storeID
        return page
    }

    /// The unified pages one read transaction serves whole (`UnifiedFetch` reads the others through the store):
    /// every contact or a container's, and a name search in a name order (`OrderedNameSearch`), each unified with
    /// its links and hidden members read beside it. `nil` for the others.
    private func unifiedPage(_ request: ContactFetchRequest) async throws -> ContactPage? {
        var plain = request
        plain.unifyResults = false
        plain.predicate.linkedMembers = .excluded
        let search = request.sortOrder != .none && OrderedNameSearch(unified: request, order: .familyName) != nil
        guard search || (request.predicate.isContainerOrAll && request.predicate.linkedMembers == nil) else {
            return nil
        }
        // A page read with the member keys leaves its labeled values for the unification to read with the hidden
        // members': one statement for both.
        let servesMembers = UnifiedFetch.pageServesMembers(request.keysToFetch)
        let readsRelated = !servesMembers
        return try await read { db in
            let order = try Self.resolve(request.sortOrder, db)
            let found =
                search
                ? try ContactFetch(request: request, order: order, readsRelated: readsRelated).unifiedNameSearch(db)
                : try ContactFetch(request: plain, order: order, readsRelated: readsRelated).run(db)
            guard var page = found else { return nil }
            page.contacts = try LinkRows.unify(db, page, keys: request.keysToFetch, servesMembers: servesMembers)
            return page
        }
    }

    /// Counts the contacts a predicate matches.
    public func contactCount(matching predicate: ContactPredicate) async throws -> Int {
        try ContactQuery.validate(predicate)
        return try await read { db in
            guard let predicate = try ContactQuery.withoutNeedlessLinkCondition(predicate, db),
                let filter = try ContactQuery.filter(predicate, db)
            else { return 0 }
            return try ContactQuery.count(db, filter)
        }
    }

    /// The identifiers of at most `limit` matches, in no particular order, in one statement.
    public func contactIdentifiers(matching predicate: ContactPredicate, limit: Int) async throws -> [String] {
        try ContactQuery.validate(predicate)
        return try await read { db in
            guard let predicate = try ContactQuery.withoutNeedlessLinkCondition(predicate, db),
                let filter = try ContactQuery.filter(predicate, db)
            else { return [] }
            let conditions = filter.conditions.isEmpty ? "" : "WHERE " + filter.conditions.joined(separator: " AND ")
            return try String.fetchAll(
                db.cachedStatement(sql: "SELECT c.id FROM \(filter.from) \(conditions) LIMIT ?"),
                arguments: filter.arguments + [max(limit, 0)])
        }
    }

    /// One contact by identifier (`unifiedContact(withIdentifier:keysToFetch:)`).
    /// - Throws: ``StoreError/Code/recordDoesNotExist`` when there is none.
    public func contact(withIdentifier identifier: String, keysToFetch keys: ContactKeySet) async throws -> Contact {
        guard let contact = try await contacts(withIdentifiers: [identifier], keysToFetch: keys).first else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        return contact
    }

    /// Contacts by identifier, in the order asked, leaving out identifiers that name no contact.
    /// One query per kind of data, whatever the number of identifiers.
    public func contacts(withIdentifiers identifiers: [String], keysToFetch keys: ContactKeySet) async throws
        -> [Contact]
    {
        guard !identifiers.isEmpty else { return [] }
        if identifiers.count == 1, ContactLoader.canLoadInOneStatement(keys) {
            let loader = ContactLoader(keys: keys)
            let shape = loader.shape
            return try await readStatement(shape.singleKey, shape.singleSQL) { statement in
                try loader.loadOne(statement, identifier: identifiers[0])
            }.map { [$0] } ?? []
        }
        return try await read { db in try Self.contacts(db, identifiers: identifiers, keys: keys) }
    }

    static func contacts(_ db: Database, identifiers: [String], keys: ContactKeySet) throws -> [Contact] {
        try ContactLoader(keys: keys).loadOrdered(db, column: "id", values: identifiers).contacts
    }

    /// The sort order the store's users chose; ``ContactSortOrder/familyName`` until set.
    public func userDefaultSortOrder() async throws -> ContactSortOrder {
        try await read { db in try Self.resolve(.userDefault, db) }
    }

    /// Sets the order ``ContactSortOrder/userDefault`` stands for.
    public func setUserDefaultSortOrder(_ order: ContactSortOrder) async throws {
        guard order != .userDefault else {
            throw StoreError(
                .validationFailed, "The default sort order must be a concrete order", keyPaths: ["sortOrder"])
        }
        try await databaseWrite { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO storeInfo (key, value) VALUES ('userDefaultSortOrder', ?)",
                arguments: [order.rawValue])
        }
    }

    static func resolve(_ order: ContactSortOrder, _ db: Database) throws -> ContactSortOrder {
        guard order == .userDefault else { return order }
        let stored = try String.fetchOne(db, sql: "SELECT value FROM storeInfo WHERE key = 'userDefaultSortOrder'")
        return stored.flatMap(ContactSortOrder.init(rawValue:)) ?? .familyName
    }
}
