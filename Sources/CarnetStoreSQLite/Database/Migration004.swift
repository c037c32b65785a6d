import CarnetStore
import GRDB

/// Names refolded (see `FoldedKeys`). Folding used to hand a whole name to Foundation at its first letter outside
/// Latin Extended-B, and Foundation keeps "đ": "Đức Nguyễn" was indexed as "đuc nguyen", so "duc" did not find it,
/// and "Đặng" sorted after "z". The sort keys, name-index rowids, name index and group sort names written with that
/// folding are computed again.
///
/// Runs with foreign keys on (`.immediate`): it changes no schema and no reference, and a deferred check would read
/// every table of a large store again.
enum Migration004 {
    static func migrate(_ db: Database) throws {
        try FoldedKeys.recompute(db)
    }
}
