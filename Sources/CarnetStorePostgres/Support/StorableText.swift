import CarnetStore

/// PostgreSQL's text cannot hold U+0000, not even as a query parameter: a lookup by text holding it fails with
/// SQLSTATE 22021 where SQLite simply finds nothing. Lookups therefore send such text with U+0001 in its place:
/// no stored text can hold either (validation refuses control characters in every stored string), so the lookup
/// finds nothing, exactly as on SQLite, and takes the same path as any other unknown identifier or name.
extension String {
    var storable: String {
        guard utf8.contains(0) else { return self }
        return String(decoding: utf8.map { $0 == 0 ? 1 : $0 }, as: UTF8.self)
    }
}

extension Array where Element == String {
    var storable: [String] { contains { $0.utf8.contains(0) } ? map(\.storable) : self }
}

extension ContactPredicate {
    var storable: ContactPredicate {
        var predicate = self
        predicate.matchingName = matchingName?.storable
        predicate.matchingEmailAddress = matchingEmailAddress?.storable
        predicate.matchingPhoneNumber = matchingPhoneNumber?.storable
        predicate.identifiers = identifiers?.storable
        predicate.groupIdentifier = groupIdentifier?.storable
        predicate.containerIdentifier = containerIdentifier?.storable
        return predicate
    }
}
