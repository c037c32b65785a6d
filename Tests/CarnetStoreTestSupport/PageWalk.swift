import CarnetStore

extension ContactStore {
    /// Every contact `request` pages through, forward from its first page in pages of `size`, as a client follows
    /// `hasNextPage` and the last cursor; with the first page's count when the request asks for it.
    package func walk(_ request: ContactFetchRequest, size: Int) async throws -> (
        contacts: [Contact], totalCount: Int?
    ) {
        var request = request
        var contacts: [Contact] = []
        var total: Int?
        var after: String?
        repeat {
            request.page = .first(size, after: after)
            let page = try await self.contacts(request)
            contacts += page.contacts
            total = total ?? page.totalCount
            after = page.hasNextPage ? page.cursors.last : nil
        } while after != nil
        return (contacts, total)
    }

    /// The family names of the contacts a name search finds, sorted, walked in pages of two.
    package func familyNames(matchingName query: String, unify: Bool = false) async throws -> [String] {
        var request = ContactFetchRequest(predicate: .matchingName(query), keysToFetch: [.familyName])
        request.unifyResults = unify
        return try await walk(request, size: 2).contacts.map(\.familyName).sorted()
    }
}
