import CarnetStore
import GRDB

/// The link changes of the history, by contact: an update through a unified contact based on an earlier revision
/// looks for a link change of its members since that revision (``SaveTransaction``'s `linkChanged`). Over the
/// sequence index alone that read every event since the base, inside the write transaction: a base revision from
/// long ago held every other writer for as long. Partial: link changes are the only updates logged with no keys, a
/// few rows beside the rest of the history.
enum Migration015 {
    /// The condition of the index, spelled the same in the queries that use it (SQLite uses a partial index only
    /// for a query whose own terms imply the index's).
    static let linkChangeCondition = "kind = \(ChangeEventKind.updateContact.rawValue) AND changedKeys = ''"

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: "CREATE INDEX changeEvent_linkChange ON changeEvent(recordId, seq) WHERE \(linkChangeCondition)")
    }
}
