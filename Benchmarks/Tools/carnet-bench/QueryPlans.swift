import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB
import Synchronization

/// Captures the SQL the store runs for each search (through `StoreConfiguration.statementTrace`) and checks with
/// EXPLAIN QUERY PLAN that it goes through indexes rather than scanning `contact` or `labeledValue`.
struct QueryPlans {
    let path: String
    let raw: DatabasePool
    let workload: Workload

    final class StatementLog: Sendable {
        private let statements = Mutex<[String]>([])
        func append(_ sql: String) { statements.withLock { $0.append(sql) } }
        func drain() -> [String] {
            statements.withLock { list in
                let drained = list
                list = []
                return drained
            }
        }
    }

    func run() async throws -> [PlanResult] {
        let statementLog = StatementLog()
        var configuration = StoreConfiguration()
        configuration.statementTrace = { statementLog.append($0) }
        let store = try SQLiteStore.open(path: path, configuration: configuration)
        let sample = workload.samples.first { $0.email != nil && $0.phone != nil }!
        let cursor = try await StoreQueries.cursor(store, after: sample.id)
        let operations: [(String, () async throws -> Void)] = [
            ("Fetch by id", { _ = try await StoreQueries.fetchByID(store, sample.id) }),
            ("Name search, 1 word", { _ = try await StoreQueries.search(store, .matchingName("jos")) }),
            ("Name search, 2 words", { _ = try await StoreQueries.search(store, .matchingName("ann sm")) }),
            ("Email search", { _ = try await StoreQueries.search(store, .matchingEmailAddress(sample.email!)) }),
            (
                "Phone search",
                {
                    _ = try await StoreQueries.search(
                        store, .matchingPhoneNumber(PhoneFormats.reformatted(sample.phone!, variant: 0)))
                }
            ),
            ("First page by family name", { _ = try await StoreQueries.page(store, after: nil) }),
            (
                "Next page by family name",
                {
                    _ = try await StoreQueries.page(store, after: cursor)
                }
            ),
            // Runs inside the first save of every minute; nothing to delete in a fresh history.
            ("History compaction", { _ = try await store.compactHistory() }),
        ]
        var results: [PlanResult] = []
        for (name, operation) in operations {
            _ = statementLog.drain()
            try await operation()
            // Queries and writes, leaving out transactions, pragmas and FTS5's own statements on its shadow tables.
            let selects = statementLog.drain().filter { sql in
                let head = sql.prefix(7).uppercased()
                return ["SELECT", "WITH", "DELETE", "UPDATE", "INSERT"].contains { head.hasPrefix($0) }
                    && !sql.contains("'main'.")
            }
            for sql in selects {
                let plan = try await raw.read { db in try Self.explain(db, sql) }
                results.append(
                    PlanResult(
                        operation: name, sql: sql, plan: plan, fullScans: plan.filter(Self.isFullScan),
                        tempSorts: plan.filter { $0.contains("TEMP B-TREE") }.count))
            }
        }
        try await store.close()
        return results
    }

    /// The plan as indented lines, as the sqlite3 shell prints it.
    static func explain(_ db: Database, _ sql: String) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql)
        var depth: [Int: Int] = [0: 0]
        return rows.map { row in
            let id: Int = row["id"]
            let parent: Int = row["parent"]
            let detail: String = row["detail"]
            let level = (depth[parent] ?? 0) + 1
            depth[id] = level
            return String(repeating: "  ", count: level - 1) + detail
        }
    }

    /// A step that reads a whole table: `SCAN c` (or `SCAN contact`) with no index and no virtual table.
    static func isFullScan(_ line: String) -> Bool {
        let detail = line.trimmingCharacters(in: .whitespaces)
        guard detail.hasPrefix("SCAN ") else { return false }
        if detail.contains("VIRTUAL TABLE") || detail.contains("USING INDEX") || detail.contains("COVERING INDEX")
            || detail.contains("CONSTANT ROW")
        {
            return false
        }
        // Scanning a subquery's or CTE's result (`SCAN d`) is not a table scan.
        let name = detail.dropFirst(5).split(separator: " ").first.map(String.init) ?? ""
        return !["d"].contains(name)
    }
}
