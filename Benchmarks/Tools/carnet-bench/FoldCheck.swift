import CarnetStore
import CarnetStoreSQLite

/// A correctness check beside the timings: names with diacritics, strokes and other scripts, searched as
/// people type them (without the marks), in a small in-memory store.
enum FoldCheck {
    struct Case: Codable, Sendable {
        var name: String
        var typed: String
        var found: Bool
    }

    static let cases: [(given: String, family: String, typed: String)] = [
        ("José", "Nuñez", "jose nunez"), ("Zoë", "Ångström", "zoe angstrom"), ("Łukasz", "Wiśniewski", "lukasz wis"),
        ("Søren", "Jørgensen", "soren jorg"), ("Ömer", "Yıldız", "omer yildiz"), ("Þóra", "Guðrún", "thora"),
        ("Đan", "Bùi", "dan bui"), ("Đức", "Nguyễn", "duc"), ("Thảo", "Đặng", "dang"), ("Minh", "Đỗ", "minh do"),
        ("Ιωάννης", "Παπαδόπουλος", "ιωαννης"), ("Müller", "Groß", "gross"),
    ]

    static func run() async throws -> [Case] {
        let store = try SQLiteStore.inMemory()
        var request = SaveRequest()
        var identifiers: [String] = []
        for item in cases {
            var contact = Contact()
            contact.givenName = item.given
            contact.familyName = item.family
            identifiers.append(contact.identifier)
            request.add(contact)
        }
        try await store.execute(request)
        var results: [Case] = []
        for (item, identifier) in zip(cases, identifiers) {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(item.typed), keysToFetch: [], sortOrder: .familyName, page: .first(50)))
            results.append(
                Case(
                    name: "\(item.given) \(item.family)", typed: item.typed,
                    found: page.contacts.contains { $0.identifier == identifier }))
        }
        try await store.close()
        return results
    }
}
