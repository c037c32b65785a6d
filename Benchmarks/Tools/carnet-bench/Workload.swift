import GRDB

/// The inputs of the read benchmarks, drawn from contacts picked at random in the database, so frequent names
/// are queried as often as they occur.
struct Workload: Sendable {
    struct Sample: Sendable {
        var id: String
        var givenName: String
        var familyName: String
        var sortFamily: String
        var email: String?
        var phone: String?
    }

    enum NameQuery: String, CaseIterable, Sendable {
        case oneWord = "1 word, 3 letters (\"jos\")"
        case twoWords = "2 words (\"ann sm\")"
        case familyPrefix = "family name, 4 letters (\"müll\")"
        case oneLetter = "1 letter (\"a\")"
    }

    var samples: [Sample]

    static func build(_ reader: DatabasePool, count: Int, seed: UInt64) async throws -> Workload {
        let samples = try await reader.read { db in
            let maxRowid = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM contact") ?? 0
            var rng = SplitMix64(seed: seed, stream: 5, index: 0)
            var samples: [Sample] = []
            let statement = try db.makeStatement(
                sql: """
                    SELECT c.id, c.givenName, c.familyName, c.sortFamily,
                        (SELECT value FROM labeledValue WHERE contactRowid = c.rowid AND kind = 2 ORDER BY position LIMIT 1),
                        (SELECT value FROM labeledValue WHERE contactRowid = c.rowid AND kind = 1 ORDER BY position LIMIT 1)
                    FROM contact c WHERE c.rowid = ?
                    """)
            var attempts = 0
            while samples.count < count, attempts < count * 10, maxRowid > 0 {
                attempts += 1
                let rowid = Int64(rng.int(1...Int(maxRowid)))
                guard let row = try Row.fetchOne(statement, arguments: [rowid]) else { continue }
                samples.append(
                    Sample(
                        id: row[0], givenName: row[1], familyName: row[2], sortFamily: row[3],
                        email: row[4], phone: row[5]))
            }
            return samples
        }
        return Workload(samples: samples)
    }

    var identifiers: [String] { samples.map(\.id) }

    func nameQueries(_ kind: NameQuery) -> [String] {
        samples.enumerated().compactMap { index, sample in
            let given = sample.givenName.isEmpty ? sample.familyName : sample.givenName
            guard !given.isEmpty else { return nil }
            switch kind {
            case .oneWord: return String(given.prefix(3)).lowercased()
            case .twoWords:
                guard !sample.familyName.isEmpty else { return nil }
                return "\(given.prefix(3).lowercased()) \(sample.familyName.prefix(2).lowercased())"
            case .familyPrefix:
                guard !sample.familyName.isEmpty else { return nil }
                // As typed: capitalized half the time, with the name's diacritics.
                let prefix = String(sample.familyName.prefix(4))
                return index % 2 == 0 ? prefix : prefix.lowercased()
            case .oneLetter: return String(given.prefix(1)).lowercased()
            }
        }
    }

    /// Existing addresses, typed with other capitalization or surrounding spaces.
    var emails: [String] {
        samples.enumerated().compactMap { index, sample in
            guard let email = sample.email else { return nil }
            switch index % 3 {
            case 0: return email.uppercased()
            case 1: return " \(email.lowercased()) "
            default: return email
            }
        }
    }

    /// Existing numbers, formatted differently from how they are stored.
    var phones: [String] {
        samples.enumerated().compactMap { index, sample in
            sample.phone.map { PhoneFormats.reformatted($0, variant: index) }
        }
    }

    /// Where pages start: every tenth is the first page, the others start after a random contact.
    var pageStarts: [(id: String, sortKey: String)?] {
        samples.enumerated().map { index, sample in index % 10 == 0 ? nil : (sample.id, sample.sortFamily) }
    }
}
