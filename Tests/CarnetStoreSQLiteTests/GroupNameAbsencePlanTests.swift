import CarnetStore
import CarnetStoreTestSupport
import GRDB
import Testing

@testable import CarnetStoreSQLite

/// How a save checks that no group of a container bears a name (``GroupNameAbsence``): one seek of the container's
/// sort-name index. By name alone, each check read every group of the container, so an import that made a new
/// group per CATEGORIES name grew with the square of its groups (24,000 took 30 s; an outside tester's find).
@Suite("Group name absence plans")
struct GroupNameAbsencePlanTests {
    @Test(
        "Each absent name is one index seek, and a name a group bears still refuses the save",
        arguments: StoreKind.sqlite)
    func seeks(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind, traced: true)
        var request = SaveRequest(transactionAuthor: "import")
        for index in 0..<50 {
            let name = "Team \(index)"
            request.add(Group(name: name))
            request.absentGroupNames.append(GroupNameAbsence(containerIdentifier: nil, name: name))
        }
        fixture.statements.reset()
        try await fixture.store.execute(request)
        let checks = fixture.statements.all.filter { $0.contains(#"SELECT EXISTS (SELECT 1 FROM "group""#) }
        #expect(checks.count == 50)
        let plan = try await fixture.sqliteStore.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + (checks.first ?? "")).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("group_container (containerRowid=? AND sortName=?)") }, "\(plan)")

        var again = SaveRequest(transactionAuthor: "import")
        again.add(Group(name: "Team 7"))
        again.absentGroupNames = [GroupNameAbsence(containerIdentifier: nil, name: "Team 7")]
        await #expect(throws: StoreError.self) { try await fixture.store.execute(again) }
        var other = SaveRequest(transactionAuthor: "import")
        other.add(Group(name: "team 7"))
        other.absentGroupNames = [GroupNameAbsence(containerIdentifier: nil, name: "team 7")]
        try await fixture.store.execute(other)
        #expect(try await fixture.store.groups().count == 51)
    }
}
