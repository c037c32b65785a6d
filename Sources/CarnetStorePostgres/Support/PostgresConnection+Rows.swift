import Logging
import PostgresNIO

extension PostgresConnection {
    /// The rows of a query. One name for the asynchronous query, so chaining `.decode` after it does not pick
    /// postgres-nio's older future-returning overload.
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}

extension AsyncSequence {
    /// Every element, in order: for decoded rows, which postgres-nio's `collect()` (rows only) does not take.
    func array() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
