import CarnetStore
import PostgresNIO

extension PostgresStore {
    /// Pairs of contacts that are probably the same person (see ``ContactStore/duplicateCandidates(_:)``).
    ///
    /// As on SQLite: shared emails and phone numbers grouped in SQL over `labeled_value_search_contact`, keeping
    /// only keys two to ``StoreLimits/duplicateKeySharers`` contacts share; the names from one pass over the book's
    /// contacts, folded and grouped by ``DuplicateFinder``. Both reads in one snapshot of the book.
    public func duplicateCandidates(_ request: DuplicateCandidateRequest) async throws -> DuplicateCandidatePage {
        try DuplicateFinder.validate(request, storeID: storeID)
        // One snapshot: the shared values and the names agree.
        return try await database.readInOneState { connection in
            var finder = DuplicateFinder()
            for key in try await sharedValueKeys(connection) { try finder.add(key) }
            try finder.add(names: try await duplicateNames(connection))
            let links = try await connection.rows(
                "SELECT contact_id, unified_id FROM contact_link WHERE book_id = \(bookID)", logger: logger
            ).decode((String, String).self).array()
            finder.excludeLinked(Dictionary(links, uniquingKeysWith: { first, _ in first }))
            return try finder.page(request, storeID: storeID)
        }
    }

    /// The email and phone search keys shared by 2 to ``StoreLimits/duplicateKeySharers`` contacts, with them.
    private func sharedValueKeys(_ connection: PostgresConnection) async throws -> [DuplicateFinder.SharedKey] {
        let email = Int16(MultiValueKind.emailAddresses.rawValue)
        let phone = Int16(MultiValueKind.phoneNumbers.rawValue)
        let limit = StoreLimits.duplicateKeySharers
        let rows = try await connection.rows(
            """
            WITH shared AS (
                SELECT kind, search_key FROM labeled_value
                WHERE book_id = \(bookID) AND kind IN (\(email), \(phone)) AND search_key IS NOT NULL
                GROUP BY kind, search_key HAVING count(DISTINCT contact_id) BETWEEN 2 AND \(limit)
            )
            SELECT s.kind, s.search_key, v.contact_id FROM shared s
            JOIN labeled_value v ON v.book_id = \(bookID) AND v.kind = s.kind AND v.search_key = s.search_key
            ORDER BY s.kind, s.search_key
            """, logger: logger)
        var keys: [DuplicateFinder.SharedKey] = []
        for try await (kindValue, value, contact) in rows.decode((Int16, String, String).self) {
            let kind: DuplicateReasonKind = kindValue == email ? .emailAddress : .phoneNumber
            if let last = keys.last, last.kind == kind, last.value == value {
                keys[keys.count - 1].contacts.append(contact)
            } else {
                keys.append(DuplicateFinder.SharedKey(kind: kind, value: value, contacts: [contact]))
            }
        }
        return keys
    }

    /// The names the name reasons compare, of every contact that has a family name or is an organization.
    private func duplicateNames(_ connection: PostgresConnection) async throws -> [DuplicateFinder.Names] {
        let organization = Int16(ContactType.organization.rawValue)
        let rows = try await connection.rows(
            """
            SELECT id, contact_type, given_name, family_name, nickname, organization_name FROM contact
            WHERE book_id = \(bookID)
                AND (family_name <> '' OR (contact_type = \(organization) AND organization_name <> ''))
            """, logger: logger)
        var names: [DuplicateFinder.Names] = []
        for try await (id, type, given, family, nickname, organizationName) in rows.decode(
            (String, Int16, String, String, String, String).self)
        {
            names.append(
                DuplicateFinder.Names(
                    identifier: id, isOrganization: type == organization, givenName: given, familyName: family,
                    nickname: nickname, organizationName: organizationName))
        }
        return names
    }
}
