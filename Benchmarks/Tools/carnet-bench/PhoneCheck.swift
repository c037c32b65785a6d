import CarnetStore
import CarnetStoreSQLite
import GRDB

/// A correctness check beside the timings: does a number stored in the international convention match the
/// same number typed the national way (the store compares the last ten digits)?
enum PhoneCheck {
    static func run(_ store: SQLiteStore, _ raw: DatabasePool) async throws -> [PhoneFormatCheck] {
        var checks: [PhoneFormatCheck] = []
        for (country, pattern) in [
            ("United States", "+1 %"), ("United Kingdom", "+44 %"), ("France", "+33 %"),
            ("Germany", "+49 %"),
        ] {
            let stored = try await raw.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT v.value, c.id FROM labeledValue v JOIN contact c ON c.rowid = v.contactRowid
                        WHERE v.kind = 1 AND v.value LIKE ? LIMIT 100
                        """, arguments: [pattern]
                ).map { ($0[0] as String, $0[1] as String) }
            }
            var found = 0
            var example = ("", "")
            for (value, id) in stored {
                guard let query = PhoneFormats.otherConvention(value) else { continue }
                if example.0.isEmpty { example = (value, query) }
                let page = try await store.contacts(
                    ContactFetchRequest(
                        predicate: .matchingPhoneNumber(query), keysToFetch: [], page: .first(1_000)))
                if page.contacts.contains(where: { $0.identifier == id }) { found += 1 }
            }
            checks.append(
                PhoneFormatCheck(
                    country: country, example: example.0, exampleQuery: example.1, tried: stored.count, found: found))
        }
        return checks
    }
}
