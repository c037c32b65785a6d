import CarnetStore
import GRDB

extension SaveTransaction {
    mutating func addContact(_ contact: Contact, containerIdentifier: String?) throws {
        // A UUID made in this process cannot name a group, container or value; it can still come back after a
        // delete, or twice, which the retired check and the UNIQUE constraint catch.
        if contact.hasFreshIdentifier {
            try ensureNotRetired(contact.identifier)
        } else {
            try ensureUnused(contact.identifier)
        }
        let container = try containerRowid(containerIdentifier)
        let v = contact.values
        let sortGiven = ContactIndexing.sortKey(contact, .givenName)
        let sortFamily = ContactIndexing.sortKey(contact, .familyName)
        // The name index rows go first, so the contact row is written once with their rowids.
        let rowid = try nextContactRowid()
        let names = ContactIndexing.names(contact)
        let ftsGiven = try NameIndex.rowid(sortKey: sortGiven, contactRowid: rowid)
        let ftsFamily = try NameIndex.rowid(sortKey: sortFamily, contactRowid: rowid)
        try NameIndex.insert(db, given: ftsGiven, family: ftsFamily, names: names)
        let statement = try db.cachedStatement(sql: Self.insertContactSQL)
        var bind = SQLiteBinder(statement)
        bind.int64(rowid)
        bind.text(contact.identifier)
        bind.int64(container.rowid)
        bind.int64(Int64(v.contactType.rawValue))
        for value in v.strings { bind.text(value) }
        bind.optionalText(v.birthday?.storageString)
        bind.optionalText(v.nonGregorianBirthday?.storageString)
        bind.int64(v.imageData != nil ? 1 : 0)
        bind.text(sortGiven)
        bind.text(sortFamily)
        bind.int64(ftsGiven)
        bind.int64(ftsFamily)
        bind.int64(seq)
        bind.int64(seq)
        bind.double(now)
        bind.double(now)
        do {
            try bind.execute()
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError(
                .insertedRecordAlreadyExists, "The identifier is already in use", affected: [contact.identifier])
        }
        for kind in MultiValueKind.allCases {
            for (position, item) in contact.encodedValues(kind).enumerated() {
                try insertValue(item, kind: kind, position: position, contactRowid: rowid)
            }
        }
        if v.imageData != nil || v.thumbnailImageData != nil {
            try db.cachedStatement(
                sql: "INSERT INTO contactImage (contactRowid, imageData, thumbnailImageData) VALUES (?, ?, ?)"
            ).execute(arguments: [rowid, v.imageData, v.thumbnailImageData])
        }
        contactDelta += 1
        try record(.addContact, contact.identifier, other: container.identifier)
    }

    static let insertContactSQL: String = {
        let columns =
            ["rowid", "id", "containerRowid", "contactType"] + ContactKey.stringKeys.map(\.rawValue) + [
                "birthday", "nonGregorianBirthday", "hasImage", "sortGiven", "sortFamily", "ftsGiven", "ftsFamily",
                "createdRevision", "revision", "createdAt", "modifiedAt",
            ]
        return
            "INSERT INTO contact (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))"
    }()

    /// Inserts a labeled value under a fresh identifier.
    func insertValue(_ item: EncodedLabeledValue, kind: MultiValueKind, position: Int, contactRowid: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO labeledValue (id, contactRowid, kind, position, label, value, searchKey, createdRevision, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var bind = SQLiteBinder(statement)
        bind.text(Contact.makeIdentifier())
        bind.int64(contactRowid)
        bind.int64(Int64(kind.rawValue))
        bind.int64(Int64(position))
        bind.optionalText(item.label)
        bind.text(item.value)
        bind.optionalText(EncodedLabeledValue.searchKey(kind: kind, value: item.value))
        bind.int64(seq)
        bind.int64(seq)
        try bind.execute()
    }
}
