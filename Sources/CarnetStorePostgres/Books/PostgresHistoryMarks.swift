import CarnetStore
import Logging
import PostgresNIO

/// The marks of a book's commits (``HistoryToken/mark(revision:timestamp:)``), read on a connection the caller
/// holds, so a token and the positions it was checked against come from one state.
enum PostgresHistoryMarks {
    /// The mark of the commit holding the event at `position`: from the event's transaction, or, for the oldest
    /// position once compaction removed its event, the mark compaction kept. `nil` at position 0 and where the
    /// book cannot tell (compacted before marks).
    static func mark(_ connection: PostgresConnection, book: String, at position: Int64, logger: Logger) async throws
        -> UInt64?
    {
        guard position > 0 else { return nil }
        let rows = try await connection.rows(
            """
            SELECT t.seq, t.timestamp FROM change_event e
            JOIN save_transaction t ON t.book_id = e.book_id AND t.seq = e.seq
            WHERE e.book_id = \(book) AND e.position = \(position)
            """, logger: logger
        ).decode((Int64, Double).self).array()
        if let (seq, timestamp) = rows.first { return HistoryToken.mark(revision: seq, timestamp: timestamp) }
        let kept = try await connection.rows(
            """
            SELECT oldest_mark FROM book_store WHERE book_id = \(book) AND oldest_position = \(position)
            """, logger: logger
        ).decode(Int64?.self).array()
        return kept.first.flatMap { $0 }.map { UInt64(bitPattern: $0) }
    }
}
