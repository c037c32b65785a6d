import CarnetStore
import Synchronization

extension ContactLoader {
    /// The columns and SQL a key set reads, built once per key set rather than per read: a contact by id is
    /// cheap enough that assembling its statement's text cost a tenth of it.
    final class Shape: Sendable {
        let columns: [(key: ContactKey, column: String)]
        /// The select list: ``ContactLoader/metadataSQL`` and then ``columns``.
        let selectSQL: String
        /// ``ContactLoader/loadOne(_:identifier:)``'s statement.
        let singleSQL: String
        /// Finds ``singleSQL``'s prepared statement on a point reader.
        let singleKey = StatementKey.make()

        private static let cache = Mutex<[ContactKeySet: Shape]>([:])
        /// Key sets come from clients' selections; past this many the cache starts over instead of growing.
        private static let cacheLimit = 512

        static func of(_ keys: ContactKeySet) -> Shape {
            if let shape = cache.withLock({ $0[keys] }) { return shape }
            let shape = Shape(keys)
            cache.withLock { shapes in
                if shapes.count >= cacheLimit { shapes.removeAll(keepingCapacity: true) }
                shapes[keys] = shape
            }
            return shape
        }

        private init(_ keys: ContactKeySet) {
            var columns: [(ContactKey, String)] = []
            for key in keys {
                switch key {
                case .contactType, .birthday, .nonGregorianBirthday: columns.append((key, "c.\(key.rawValue)"))
                case .imageDataAvailable: columns.append((key, "c.hasImage"))
                case _ where key.stringSlot != nil: columns.append((key, "c.\(key.rawValue)"))
                default: break
                }
            }
            self.columns = columns
            selectSQL = ([ContactLoader.metadataSQL] + columns.map(\.1)).joined(separator: ", ")
            singleSQL = Self.singleSQL(keys, selectSQL)
        }

        private static func singleSQL(_ keys: ContactKeySet, _ selectSQL: String) -> String {
            let kinds = MultiValueKind.allCases.filter { keys.contains($0.key) }.map(\.rawValue)
            let valueColumns = kinds.isEmpty ? "NULL, NULL, NULL, NULL" : "lv.kind, lv.id, lv.label, lv.value"
            var sql =
                "SELECT \(selectSQL), co.id, \(valueColumns) FROM contact c JOIN container co ON co.rowid = c.containerRowid"
            if let first = kinds.min(), let last = kinds.max() {
                // A range, not `IN (...)`: SQLite builds a temporary b-tree for an IN list on every run of the
                // statement, which costs a point read more than the rows of the kinds in between, skipped by the
                // reader.
                sql += """
                     LEFT JOIN labeledValue lv ON lv.contactRowid = c.rowid \
                    AND \(first == last ? "lv.kind = \(first)" : "lv.kind BETWEEN \(first) AND \(last)")
                    """
            }
            sql += " WHERE c.id = ?"
            if !kinds.isEmpty { sql += " ORDER BY lv.kind, lv.position" }
            return sql
        }
    }
}
