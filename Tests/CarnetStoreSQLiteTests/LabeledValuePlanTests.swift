import CarnetStore
import CarnetStoreTestSupport
import GRDB
import Testing

@testable import CarnetStoreSQLite

/// How SQLite reads the labeled values of contacts already found: per contact, never per contact and kind.
@Suite("Labeled value plans")
struct LabeledValuePlanTests {
    /// The plan of every labeled-value read the fixture logged since its last reset.
    func plans(_ fixture: StoreFixture) async throws -> [[String]] {
        let reads = fixture.statements.all.filter {
            $0.contains("FROM labeledValue") && $0.contains("ORDER BY contactRowid")
        }
        var plans: [[String]] = []
        for statement in reads {
            plans.append(
                try await fixture.sqliteStore.writer.read { db in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement).map { $0["detail"] as String }
                })
        }
        return plans
    }

    @Test("A page seeks once per contact whatever the kinds; a full sync reads one range", arguments: StoreKind.sqlite)
    func seeksPerContact(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind, traced: true)
        let contacts = (0..<30).map {
            Make.person("P\($0)", "Q", emails: ["p\($0)@example.com"], phones: ["555 01\($0)"])
        }
        try await fixture.store.add(contacts)

        for keys: ContactKeySet in [[.phoneNumbers], [.phoneNumbers, .emailAddresses], .all] {
            fixture.statements.reset()
            let page = try await fixture.store.contacts(ContactFetchRequest(keysToFetch: keys, page: .first(20)))
            #expect(page.contacts.count == 20)
            #expect(page.contacts.allSatisfy { $0.phoneNumbers.count == 1 })
            let plans = try await plans(fixture)
            #expect(!plans.isEmpty)
            for plan in plans {
                // With `kind` in the index condition, SQLite seeks once per contact and kind asked for.
                #expect(plan.contains { $0.contains("labeledValue_contact (contactRowid=?)") }, "\(plan)")
                #expect(!plan.contains { $0.contains("kind=") || $0.contains("TEMP B-TREE") }, "\(plan)")
            }
        }

        fixture.statements.reset()
        let sync = try await fixture.store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: nil, contactKeys: .all, limit: 1000))
        let synced = sync.events.compactMap(\.contact)
        #expect(synced.count == 30)
        #expect(synced.allSatisfy { $0.phoneNumbers.count == 1 && $0.emailAddresses.count == 1 })
        let plans = try await plans(fixture)
        #expect(plans.count == 1)
        for plan in plans {
            #expect(plan.contains { $0.contains("(contactRowid>? AND contactRowid<?)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
