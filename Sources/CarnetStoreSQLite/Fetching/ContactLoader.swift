import CarnetStore
import Foundation
import GRDB

/// Reads contacts with exactly the requested keys: single values from the `contact` row's columns for those
/// keys, labeled values of the requested kinds only, images only when asked for.
struct ContactLoader {
    let keys: ContactKeySet
    /// The SQL for these keys, built once per key set.
    let shape: Shape
    /// The `contact` columns to select after the fixed metadata columns.
    var columns: [(key: ContactKey, column: String)] { shape.columns }

    /// The fixed columns every fetch selects: rowid, identifier, metadata.
    static let metadataSQL = "c.rowid, c.id, c.revision, c.createdAt, c.modifiedAt, c.containerRowid"
    static let metadataCount = 6

    init(keys: ContactKeySet) {
        self.keys = keys
        self.shape = Shape.of(keys)
    }

    var selectSQL: String { shape.selectSQL }

    /// Decodes the current row of a statement selected with ``selectSQL`` (trailing columns are ignored);
    /// `containers` is ``containerNames(_:)`` read in the same transaction.
    func decode(_ row: SQLiteColumns, containers: [Int64: String]) -> (rowid: Int64, contact: Contact) {
        var contact = Contact(fetched: row.string(1), keys: keys)
        contact.revision = row.int64(2)
        contact.createdAt = Date(timeIntervalSince1970: row.double(3))
        contact.modifiedAt = Date(timeIntervalSince1970: row.double(4))
        contact.containerIdentifier = containers[row.int64(5)]
        for (offset, entry) in columns.enumerated() {
            let index = Int32(Self.metadataCount + offset)
            switch entry.key {
            case .contactType: contact.values.contactType = ContactType(rawValue: row.int(index)) ?? .person
            case .birthday:
                contact.values.birthday = row.optionalString(index).flatMap(ContactDate.init(storageString:))
            case .nonGregorianBirthday:
                contact.values.nonGregorianBirthday = row.optionalString(index).flatMap(
                    ContactDate.init(storageString:))
            case .imageDataAvailable: contact.values.imageDataAvailable = row.int64(index) != 0
            default:
                // Every other single-value column is a string key's.
                if let slot = entry.key.stringSlot { contact.values.strings[slot] = row.string(index) }
            }
        }
        return (row.int64(0), contact)
    }

    /// Every container's identifier by rowid: one query for the (few) containers, read before a page is decoded,
    /// so each contact shares its container's string instead of a join or a conversion per row.
    static func containerNames(_ db: Database) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        let rows = try SQLiteRows(db.cachedStatement(sql: "SELECT rowid, id FROM container"), arguments: [])
        while let row = try rows.next() { names[row.int64(0)] = row.string(1) }
        return names
    }

    /// Loads contacts by a column (`rowid` or `id`), in the given order, skipping values that match nothing.
    func load<Value: SQLiteKeyValue>(_ db: Database, column: String, values: [Value]) throws
        -> [(rowid: Int64, contact: Contact)]
    {
        let (rowids, contacts) = try loadOrdered(db, column: column, values: values)
        return zip(rowids, contacts).map { ($0, $1) }
    }

    /// ``load(_:column:values:)`` as two arrays. A `Contact` holds many references, so each copy of one costs a
    /// retain and a release per field: contacts are decoded into one array, filled in place and put in order by
    /// swapping, never copied.
    /// - Parameter related: `false` leaves labeled values and images out, for a caller that reads them with
    ///   ``loadRelated(_:rowids:into:)`` together with other contacts'.
    func loadOrdered<Value: SQLiteKeyValue>(_ db: Database, column: String, values: [Value], related: Bool = true)
        throws -> (rowids: [Int64], contacts: [Contact])
    {
        var (rowids, contacts, indexByValue) = try loadUnordered(db, column: column, values: values, related: related)
        // The order asked for: position k gets the contact of the k-th distinct value found.
        var order: [Int] = []
        order.reserveCapacity(contacts.count)
        var taken = [Bool](repeating: false, count: contacts.count)
        for value in values {
            guard let index = indexByValue[value], !taken[index] else { continue }
            taken[index] = true
            order.append(index)
        }
        Self.permute(&rowids, &contacts, into: order)
        return (rowids, contacts)
    }

    /// The contacts whose `column` is one of `values`, in the database's order, each once, with where each value's
    /// contact is: for callers that look contacts up by value and need no order. `related` as in
    /// ``loadOrdered(_:column:values:related:)``.
    func loadUnordered<Value: SQLiteKeyValue>(_ db: Database, column: String, values: [Value], related: Bool = true)
        throws -> (rowids: [Int64], contacts: [Contact], indexByValue: [Value: Int])
    {
        guard !values.isEmpty else { return ([], [], [:]) }
        var rowids: [Int64] = []
        var contacts: [Contact] = []
        rowids.reserveCapacity(values.count)
        contacts.reserveCapacity(values.count)
        var indexByValue: [Value: Int] = [:]
        indexByValue.reserveCapacity(values.count)
        let valueIndex = Self.metadataCount + columns.count
        let containers = try Self.containerNames(db)
        for chunk in values.chunked(StoreLimits.pageSize) {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(selectSQL), c.\(column) FROM contact c
                    WHERE c.\(column) IN (\(InList.placeholders(chunk.count)))
                    """)
            // Bound and stepped straight through SQLite: GRDB's arguments and row cursor cost more than the read.
            var binder = SQLiteBinder(statement)
            InList.bind(chunk, to: &binder)
            let rows = SQLiteSteppedRows(statement.sqliteStatement)
            while let columns = try rows.next() {
                // A value repeated in two chunks brings its row twice: keep the first.
                let value = Value.read(columns, Int32(valueIndex))
                guard indexByValue[value] == nil else { continue }
                let (rowid, contact) = decode(columns, containers: containers)
                indexByValue[value] = contacts.count
                rowids.append(rowid)
                contacts.append(contact)
            }
        }
        if related { try loadRelated(db, rowids: rowids, into: &contacts) }
        return (rowids, contacts, indexByValue)
    }

    /// Rearranges both arrays so that position k holds what was at `order[k]` (`order` is a permutation), by
    /// following its cycles with swaps.
    static func permute(_ rowids: inout [Int64], _ contacts: inout [Contact], into order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start { break }
                rowids.swapAt(position, source)
                contacts.swapAt(position, source)
                position = source
            }
        }
    }

    /// Loads contacts by rowid, in the given order, skipping rowids that no longer exist.
    func load(_ db: Database, rowids: [Int64]) throws -> [(rowid: Int64, contact: Contact)] {
        try load(db, column: "rowid", values: rowids)
    }
}
