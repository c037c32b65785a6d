import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// Reads contacts with exactly the requested keys: the columns of those keys, labeled values of the requested
/// kinds only, images only when asked for.
struct PostgresContactLoader {
    let keys: ContactKeySet
    let columns: [(key: ContactKey, column: String)]

    /// The columns every read selects first: identifier and metadata.
    static let metadataSQL = "c.id, c.revision, c.created_at, c.modified_at, c.container_id, c.created_order"
    static let metadataCount = 6

    init(keys: ContactKeySet) {
        self.keys = keys
        var columns: [(ContactKey, String)] = []
        for key in ContactKey.allCases where keys.contains(key) && !key.isMultiValue {
            switch key {
            case .contactType: columns.append((key, "c.contact_type"))
            case .birthday: columns.append((key, "c.birthday"))
            case .nonGregorianBirthday: columns.append((key, "c.non_gregorian_birthday"))
            case .imageDataAvailable: columns.append((key, "(c.image_data IS NOT NULL)"))
            case .imageData: columns.append((key, "c.image_data"))
            case .thumbnailImageData: columns.append((key, "c.thumbnail_image_data"))
            default:
                if key.stringSlot != nil { columns.append((key, "c." + BookSchema.column(key))) }
            }
        }
        self.columns = columns
    }

    /// The labeled-value kinds requested, as stored.
    var valueKinds: [Int16] { MultiValueKind.allCases.filter { keys.contains($0.key) }.map { Int16($0.rawValue) } }

    /// The condition on `alias`'s kind for `kinds`, bound into `sql`: none when every kind is asked for, else a
    /// filter on each row rather than a condition of the index scan. PostgreSQL 15 descends an index once per
    /// combination of two arrays' elements: `contact_id = ANY(50) AND kind = ANY(9)` made 450 descents of
    /// `labeled_value_contact` for a page (1,359 buffers, 2.2 ms) where 50 read the same rows (159, 0.8 ms).
    static func kindCondition(_ alias: String, _ kinds: [Int16], _ sql: inout SQLBuilder) throws -> String {
        guard kinds.count < MultiValueKind.allCases.count else { return "" }
        return " AND \(alias)kind + 0 = ANY(\(try sql.bind(kinds)))"
    }

    var selectSQL: String { ([Self.metadataSQL] + columns.map(\.column)).joined(separator: ", ") }

    /// Decodes a row selected with ``selectSQL`` (trailing columns are left for the caller): the contact and its
    /// place in creation order.
    func decode(_ row: PostgresRow) throws -> (order: Int64, contact: Contact, cells: [PostgresCell]) {
        let cells = Array(row)
        return (try cells[5].decode(Int64.self), try decode(cells), cells)
    }

    /// The contact in the cells of a row selected with ``selectSQL``, for a caller that reads the row's other cells.
    func decode(_ cells: [PostgresCell]) throws -> Contact {
        try decode(cells) { Self.metadataCount + $0 }
    }

    /// Where each of ``columns`` is in a row selected with `wider`'s ``selectSQL``; `nil` when `wider` lacks one.
    func positions(in wider: PostgresContactLoader) -> [Int]? {
        var position: [ContactKey: Int] = [:]
        for (offset, entry) in wider.columns.enumerated() { position[entry.key] = Self.metadataCount + offset }
        let found = columns.compactMap { position[$0.key] }
        return found.count == columns.count ? found : nil
    }

    /// The contact in the cells of a row selected with a wider loader's ``selectSQL``, its columns at `positions`
    /// (``positions(in:)``): with this loader's keys only, as its own statement would have read it.
    func decode(_ cells: [PostgresCell], positions: [Int]) throws -> Contact {
        try decode(cells) { positions[$0] }
    }

    /// The contact in `cells`, the metadata first and each of ``columns`` at `cell(offset)`.
    private func decode(_ cells: [PostgresCell], cell: (Int) -> Int) throws -> Contact {
        var contact = Contact(fetched: try cells[0].decode(String.self), keys: keys)
        contact.revision = try cells[1].decode(Int64.self)
        contact.createdAt = Date(timeIntervalSince1970: try cells[2].decode(Double.self))
        contact.modifiedAt = Date(timeIntervalSince1970: try cells[3].decode(Double.self))
        contact.containerIdentifier = try cells[4].decode(String.self)
        for (offset, entry) in columns.enumerated() {
            let cell = cells[cell(offset)]
            switch entry.key {
            case .contactType:
                contact.values.contactType = ContactType(rawValue: Int(try cell.decode(Int16.self))) ?? .person
            case .birthday:
                contact.values.birthday = try cell.decode(String?.self).flatMap(ContactDate.init(storageString:))
            case .nonGregorianBirthday:
                contact.values.nonGregorianBirthday = try cell.decode(String?.self).flatMap(
                    ContactDate.init(storageString:))
            case .imageDataAvailable: contact.values.imageDataAvailable = try cell.decode(Bool.self)
            case .imageData:
                contact.values.imageData = try cell.decode(Data?.self)
                try ReadAllowance.current?.charge(contact.values.imageData?.count ?? 0)
            case .thumbnailImageData:
                contact.values.thumbnailImageData = try cell.decode(Data?.self)
                try ReadAllowance.current?.charge(contact.values.thumbnailImageData?.count ?? 0)
            default:
                if let slot = entry.key.stringSlot { contact.values.strings[slot] = try cell.decode(String.self) }
            }
        }
        return contact
    }

    /// Fills in labeled values of the requested kinds, with one query for every contact.
    func loadRelated(_ connection: PostgresConnection, bookID: String, logger: Logger, into contacts: inout [Contact])
        async throws
    {
        let kinds = valueKinds
        guard !contacts.isEmpty, !kinds.isEmpty else { return }
        var indexByID: [String: Int] = [:]
        for (index, contact) in contacts.enumerated() { indexByID[contact.identifier] = index }
        var sql = SQLBuilder()
        let text = """
            SELECT contact_id, kind, id, label, value FROM labeled_value
            WHERE book_id = \(try sql.bind(bookID)) AND contact_id = ANY(\(try sql.bind(contacts.map(\.identifier))))\(
                try Self.kindCondition("", kinds, &sql))
            ORDER BY contact_id, kind, position
            """
        // Streamed rather than collected: a read past the allowance stops before the rest arrives.
        let allowance = ReadAllowance.current
        let rows = try await connection.rows(sql.query(text), logger: logger)
            .decode((String, Int16, String, String?, String).self)
        for try await (contactID, kind, id, label, value) in rows {
            guard let index = indexByID[contactID], let kind = MultiValueKind(rawValue: Int(kind)) else { continue }
            try allowance?.charge(value.utf8.count)
            contacts[index].appendEncoded(kind, identifier: id, label: label, value: value)
        }
    }

    /// Contacts by identifier, in the order asked, each once, leaving out identifiers that name none.
    func load(_ connection: PostgresConnection, bookID: String, logger: Logger, identifiers: [String]) async throws
        -> [Contact]
    {
        guard !identifiers.isEmpty else { return [] }
        let kinds = valueKinds
        let joined = !kinds.isEmpty && !keys.contains(.imageData) && !keys.contains(.thumbnailImageData)
        var byID: [String: Contact] = [:]
        if !joined {
            var sql = SQLBuilder()
            let text =
                "SELECT \(selectSQL) FROM contact c WHERE c.book_id = \(try sql.bind(bookID)) AND c.id = ANY(\(try sql.bind(identifiers)))"
            for try await row in try await connection.rows(sql.query(text), logger: logger) {
                let contact = try decode(row).contact
                byID[contact.identifier] = contact
            }
        } else {
            byID = try await loadJoined(
                connection, bookID: bookID, logger: logger, identifiers: identifiers, kinds: kinds)
        }
        var contacts: [Contact] = []
        var seen = Set<String>()
        for identifier in identifiers where seen.insert(identifier).inserted {
            if let contact = byID.removeValue(forKey: identifier) { contacts.append(contact) }
        }
        if !joined {
            try await loadRelated(connection, bookID: bookID, logger: logger, into: &contacts)
        }
        return contacts
    }

    /// Contacts with their labeled values in one statement, a row per value (a contact's columns repeat on each):
    /// a read by identifier costs one round trip to the database instead of two. Not for images, which would
    /// repeat too.
    private func loadJoined(
        _ connection: PostgresConnection, bookID: String, logger: Logger, identifiers: [String], kinds: [Int16]
    ) async throws -> [String: Contact] {
        var sql = SQLBuilder()
        let book = try sql.bind(bookID)
        let text = """
            SELECT \(selectSQL), v.kind, v.id, v.label, v.value FROM contact c
            LEFT JOIN labeled_value v ON v.book_id = \(book) AND v.contact_id = c.id\(try Self.kindCondition("v.", kinds, &sql))
            WHERE c.book_id = \(book) AND c.id = ANY(\(try sql.bind(identifiers)))
            ORDER BY c.id, v.kind, v.position
            """
        var byID: [String: Contact] = [:]
        let valueColumn = Self.metadataCount + columns.count
        let allowance = ReadAllowance.current
        for try await row in try await connection.rows(sql.query(text), logger: logger) {
            let cells = Array(row)
            let identifier = try cells[0].decode(String.self)
            if byID[identifier] == nil { byID[identifier] = try decode(cells) }
            guard let rawKind = try cells[valueColumn].decode(Int16?.self),
                let kind = MultiValueKind(rawValue: Int(rawKind))
            else { continue }
            let value = try cells[valueColumn + 3].decode(String.self)
            try allowance?.charge(value.utf8.count)
            byID[identifier]?.appendEncoded(
                kind, identifier: try cells[valueColumn + 1].decode(String.self),
                label: try cells[valueColumn + 2].decode(String?.self), value: value)
        }
        return byID
    }
}

extension PostgresContactLoader {
    func loadRelated(_ connection: PostgresConnection, store: PostgresStore, into contacts: inout [Contact])
        async throws
    {
        try await loadRelated(connection, bookID: store.bookID, logger: store.logger, into: &contacts)
    }

    func load(_ connection: PostgresConnection, store: PostgresStore, identifiers: [String]) async throws
        -> [Contact]
    {
        try await load(connection, bookID: store.bookID, logger: store.logger, identifiers: identifiers)
    }
}
