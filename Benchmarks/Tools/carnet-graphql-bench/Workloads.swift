import CarnetGraphQL
import CarnetGraphQLReference
import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB
import GraphQL

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// One line of the report.
struct Measurement {
    var operation: String
    var carnet: Stats
    var reference: Stats?
    var baseline: Stats?
    /// Whether Carnet's response equals the reference executor's, as JSON values.
    var identical: Bool?
}

struct Workloads {
    let store: SQLiteStore
    let service: GraphQLService
    let reference: GraphQLSchema
    let raw: DatabasePool
    let seeded: Seed.Seeded
    let iterations: Int

    static let contactQuery = """
        query Contact($id: ID!) { contact(id: $id) { id givenName familyName organizationName jobTitle
          birthday { year month day } phoneNumbers { label value } emailAddresses { label value } } }
        """
    static let pageQuery = """
        query Page($n: Int!) { contacts(first: $n, sortOrder: FAMILY_NAME) { nodes { id givenName familyName
          emailAddresses { value } phoneNumbers { value } } } }
        """
    static let searchQuery = """
        query Search($q: String!) { contacts(first: 50, sortOrder: FAMILY_NAME, filter: {name: $q}) { nodes { id givenName familyName } } }
        """
    /// A new device's first page: every contact with every key.
    static let fullSyncQuery = """
        query FullSync { changeHistory(first: 10000) { token hasMore events { __typename ... on AddContactEvent { contact {
          id contactType namePrefix givenName middleName familyName previousFamilyName nameSuffix nickname
          phoneticGivenName phoneticMiddleName phoneticFamilyName phoneticOrganizationName organizationName
          departmentName jobTitle note birthday { calendar era year month day isLeapMonth }
          nonGregorianBirthday { calendar era year month day isLeapMonth } imageData thumbnailImageData imageDataAvailable
          phoneNumbers { identifier label value } emailAddresses { identifier label value }
          urlAddresses { identifier label value }
          postalAddresses { identifier label value { street subLocality city subAdministrativeArea state postalCode country isoCountryCode } }
          dates { identifier label value { calendar era year month day isLeapMonth } }
          contactRelations { identifier label value { name } }
          socialProfiles { identifier label value { urlString username userIdentifier service } }
          instantMessageAddresses { identifier label value { username service } } } } } } }
        """
    static let historyQuery = """
        query History($since: String) { changeHistory(since: $since, first: 1000) { events { __typename
          ... on AddContactEvent { contactId contact { givenName familyName } } } } }
        """

    func carnet(_ query: String, _ variables: [String: JSONValue]) async -> [UInt8] {
        await service.execute(GraphQLRequestBody(query: query, variables: variables)).body
    }

    func referenceJSON(_ query: String, _ variables: [String: JSONValue]) async throws -> JSONValue {
        let result = try await ReferenceSchema.execute(reference, store: store, query: query, variables: variables)
        return try JSONParser.parse(Array(JSONEncoder().encode(result)))
    }

    func measure(
        _ name: String, _ query: String, iterations: Int, variables: @escaping (Int) -> [String: JSONValue],
        reference: Bool = true, baseline: ((Int) throws -> [UInt8])? = nil
    ) async throws -> Measurement {
        let identical: Bool? =
            reference
            ? try await JSONParser.parse(carnet(query, variables(0))) == referenceJSON(query, variables(0)) : nil
        let ours = try await Stopwatch.measure(iterations: iterations) { _ = await carnet(query, variables($0)) }
        let theirs =
            reference
            ? try await Stopwatch.measure(iterations: max(5, iterations / 20), warmup: 2) {
                _ = try await referenceJSON(query, variables($0))
            } : nil
        let floor = try baseline.map { body in try Stopwatch.measureSync(iterations: iterations) { _ = try body($0) } }
        return Measurement(operation: name, carnet: ours, reference: theirs, baseline: floor, identical: identical)
    }

    /// A one-row read through GRDB alone, synchronously: the floor under the store's point read.
    static func syncRead(_ queue: DatabaseQueue, _ id: String) throws -> String? {
        try queue.unsafeRead { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT c.id FROM contact c WHERE c.id = ?"), arguments: [id])
        }
    }

    /// Carnet against its hand-written baseline in five rounds, each timing the two in turn, one run of each after
    /// the other: drift in the machine's load (minutes of it on a shared host) then hits both sides alike, where
    /// timing all of one side and then all of the other measured the drift as often as the code.
    func ratio(
        _ name: String, iterations: Int, carnet: () async throws -> Void, baseline: () throws -> Void
    ) async throws {
        for _ in 0..<min(10, iterations) {
            try await carnet()
            try baseline()
        }
        var ratios: [Double] = []
        for _ in 0..<5 {
            var carnetSamples: [Double] = []
            var baseSamples: [Double] = []
            for _ in 0..<iterations {
                var start = Stopwatch.clock.now
                try await carnet()
                carnetSamples.append(Stopwatch.microseconds(Stopwatch.clock.now - start))
                start = Stopwatch.clock.now
                try baseline()
                baseSamples.append(Stopwatch.microseconds(Stopwatch.clock.now - start))
            }
            let carnetRun = Stats(carnetSamples)
            let baseRun = Stats(baseSamples)
            ratios.append(Double(carnetRun.p50) / Double(baseRun.p50))
            print("\(name): Carnet \(carnetRun.p50) µs, baseline \(baseRun.p50) µs")
        }
        print("ratio median \(ratios.sorted()[2])")
    }

    /// Runs one operation's Carnet side in a loop, for `perf record`.
    func profile(_ name: String) async throws {
        if name == "historyratio" {
            let start = try await raw.read { db in
                try Int64.fetchOne(db, sql: "SELECT max(position) FROM changeEvent WHERE seq <= 2") ?? 0
            }
            let base = Baseline(raw: raw)
            try await ratio("history page", iterations: iterations) {
                _ = await carnet(Self.historyQuery, ["since": .string(seeded.historyToken)])
            } baseline: {
                _ = try base.history(after: start)
            }
            return
        }
        if name == "fullsyncratio" {
            let base = Baseline(raw: raw)
            try await ratio("full-sync page", iterations: max(5, iterations / 50)) {
                _ = await carnet(Self.fullSyncQuery, [:])
            } baseline: {
                _ = try base.fullSync(limit: 9_999)
            }
            return
        }
        if name == "split" {
            let keys: ContactKeySet = [
                .givenName, .familyName, .organizationName, .jobTitle, .birthday, .phoneNumbers, .emailAddresses,
            ]
            let storeOnly = try await Stopwatch.measure(iterations: iterations) {
                _ = try await store.contacts(
                    withIdentifiers: [seeded.identifiers[$0 % seeded.identifiers.count]], keysToFetch: keys)
            }
            let asyncRead = try await Stopwatch.measure(iterations: iterations) { _ in _ = try await raw.read { _ in 1 }
            }
            let graphQL = try await Stopwatch.measure(iterations: iterations) {
                _ = await carnet(Self.contactQuery, ["id": .string(seeded.identifiers[$0 % seeded.identifiers.count])])
            }
            let typename = try await Stopwatch.measure(iterations: iterations) { _ in
                _ = await carnet("{ __typename }", [:])
            }
            print(
                "store API \(storeOnly.p50) µs, empty async read \(asyncRead.p50) µs, GraphQL \(graphQL.p50) µs, { __typename } \(typename.p50) µs"
            )
            return
        }
        let rawQueue = try DatabaseQueue(
            path: raw.path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        let rawConnection = rawQueue.inDatabase { $0.sqliteConnection }
        var rawStatement: OpaquePointer?
        guard
            sqlite3_prepare_v2(rawConnection, "SELECT c.id FROM contact c WHERE c.id = ?", -1, &rawStatement, nil)
                == SQLITE_OK
        else { throw DatabaseError(message: "the raw statement did not prepare") }
        defer { sqlite3_finalize(rawStatement) }
        let historyStart = try await raw.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(position) FROM changeEvent WHERE seq <= 2") ?? 0
        }
        for index in 0..<iterations {
            switch name {
            case "contact":
                _ = await carnet(
                    Self.contactQuery, ["id": .string(seeded.identifiers[index % seeded.identifiers.count])])
            case "id":
                _ = await carnet(
                    "query C($id: ID!) { contact(id: $id) { id } }",
                    ["id": .string(seeded.identifiers[index % seeded.identifiers.count])])
            case "typename": _ = await carnet("{ __typename }", [:])
            case "storeid":
                _ = try await store.contacts(
                    withIdentifiers: [seeded.identifiers[index % seeded.identifiers.count]], keysToFetch: [])
            case "storefull":
                _ = try await store.contacts(
                    withIdentifiers: [seeded.identifiers[index % seeded.identifiers.count]],
                    keysToFetch: [
                        .givenName, .familyName, .organizationName, .jobTitle, .birthday, .phoneNumbers,
                        .emailAddresses,
                    ])
            case "sqliteid":
                let id = seeded.identifiers[index % seeded.identifiers.count]
                sqlite3_reset(rawStatement)
                _ = id.utf8CString.withUnsafeBufferPointer {
                    sqlite3_bind_text(
                        rawStatement, 1, $0.baseAddress, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
                while sqlite3_step(rawStatement) == SQLITE_ROW { _ = sqlite3_column_text(rawStatement, 0) }
            case "grdbid":
                _ = try Self.syncRead(rawQueue, seeded.identifiers[index % seeded.identifiers.count])
            case "history": _ = await carnet(Self.historyQuery, ["since": .string(seeded.historyToken)])
            case "storehistory":
                _ = try await store.changeHistory(
                    ChangeHistoryFetchRequest(
                        startingToken: seeded.historyToken, contactKeys: [.givenName, .familyName], limit: 1000))
            case "basehistory": _ = try Baseline(raw: raw).history(after: historyStart)
            case "basefullsync": _ = try Baseline(raw: raw).fullSync(limit: 9_999)
            case "fullsync": _ = await carnet(Self.fullSyncQuery, [:])
            case "search":
                _ = await carnet(
                    Self.searchQuery, ["q": .string(["jos", "ann sm", "mül", "zo", "chen", "a"][index % 6])])
            default: _ = await carnet(Self.pageQuery, ["n": .int(1000)])
            }
        }
    }

    func all() async throws -> [Measurement] {
        let ids = seeded.identifiers
        func id(_ i: Int) -> String { ids[(i &* 7919) % ids.count] }
        let base = Baseline(raw: raw)
        let historyStart = try await raw.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(position) FROM changeEvent WHERE seq <= 2") ?? 0
        }
        let words = ["jos", "ann sm", "mül", "zo", "chen", "a"]
        var rows: [Measurement] = []
        rows.append(
            try await measure(
                "Contact by id, 8 fields", Self.contactQuery, iterations: iterations,
                variables: { ["id": .string(id($0))] }, baseline: { try base.contact(id($0)) }))
        rows.append(
            try await measure(
                "Page of 50 (names, emails, phones)", Self.pageQuery, iterations: iterations,
                variables: { _ in ["n": .int(50)] }, baseline: { _ in try base.page(50) }))
        rows.append(
            try await measure(
                "Page of 1,000 (names, emails, phones)", Self.pageQuery, iterations: max(20, iterations / 10),
                variables: { _ in ["n": .int(1000)] }, baseline: { _ in try base.page(1000) }))
        rows.append(
            try await measure(
                "Name search, page of 50", Self.searchQuery, iterations: iterations,
                variables: { ["q": .string(words[$0 % words.count])] },
                baseline: {
                    try base.search(
                        words[$0 % words.count].split(separator: " ").map { "\"\($0)\"*" }.joined(separator: " AND "))
                }))
        rows.append(
            try await measure(
                "History page of 1,000 events", Self.historyQuery, iterations: max(20, iterations / 10),
                variables: { _ in ["since": .string(seeded.historyToken)] },
                baseline: { _ in try base.history(after: historyStart) }))
        rows.append(try await saves(count: 1, iterations: iterations))
        rows.append(try await saves(count: 100, iterations: max(20, iterations / 10)))
        return rows
    }

    /// A save mutation through GraphQL; the baseline is the same save through the store API.
    func saves(count: Int, iterations: Int) async throws -> Measurement {
        let operation: JSONValue = .object([
            "addContact": .object([
                "givenName": .string("Bench"), "familyName": .string("Saver"),
                "emailAddresses": .array([.object(["label": .string("home"), "value": .string("b@example.com")])]),
                "phoneNumbers": .array([.object(["label": .string("mobile"), "value": .string("+1 555 123 4567")])]),
            ])
        ])
        let request: JSONValue = .object([
            "transactionAuthor": .string("bench"), "operations": .array(Array(repeating: operation, count: count)),
        ])
        let query = "mutation Save($r: SaveRequestInput!) { save(request: $r) { revision contacts { id } } }"
        let ours = try await Stopwatch.measure(iterations: iterations) { _ in _ = await carnet(query, ["r": request]) }
        let direct = try await Stopwatch.measure(iterations: iterations) { _ in
            var save = SaveRequest(transactionAuthor: "bench")
            for _ in 0..<count {
                var contact = Contact()
                contact.givenName = "Bench"
                contact.familyName = "Saver"
                contact.emailAddresses = [LabeledValue(label: ContactLabel.home, value: "b@example.com")]
                contact.phoneNumbers = [LabeledValue(label: ContactLabel.phoneMobile, value: "+1 555 123 4567")]
                save.add(contact)
            }
            try await store.execute(save)
        }
        return Measurement(
            operation: "Save \(count) contact\(count == 1 ? "" : "s") (baseline: store API)", carnet: ours,
            reference: nil, baseline: direct, identical: nil)
    }
}
