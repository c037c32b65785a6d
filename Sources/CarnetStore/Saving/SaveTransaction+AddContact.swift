import GRDB

extension SaveTransaction {
    mutating func addContact(_ contact: Contact, containerIdentifier: String?) throws {
        // A UUID made in this process cannot name a group, container or value; it can still come back after a
        // delete, or twice, which the retired check and the UNIQUE constraint catch.
        if contact.hasFreshIdentifier { try ensureNotRetired(contact.identifier) } else { try ensureUnused(contact.identifier) }
        let container = try containerRowid(containerIdentifier)
        let v = contact.values
        let columns = ["id", "containerRowid", "contactType"] + ContactKey.stringKeys.map(\.rawValue) + [
            "birthday", "nonGregorianBirthday", "hasImage", "sortGiven", "sortFamily", "ftsGiven", "ftsFamily",
            "createdRevision", "revision", "createdAt", "modifiedAt",
        ]
        let sortGiven = ContactIndexing.sortKey(contact, .givenName)
        let sortFamily = ContactIndexing.sortKey(contact, .familyName)
        let ftsGiven = try NameIndex.allocate(db, .given, sortKey: sortGiven)
        let ftsFamily = try NameIndex.allocate(db, .family, sortKey: sortFamily)
        var arguments: [(any DatabaseValueConvertible)?] = [contact.identifier, container.rowid, v.contactType.rawValue]
        arguments += v.strings
        arguments += [
            v.birthday?.storageString, v.nonGregorianBirthday?.storageString, v.imageData != nil,
            sortGiven, sortFamily, ftsGiven, ftsFamily, seq, seq, now, now,
        ]
        let sql = "INSERT INTO contact (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))"
        do {
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError(.insertedRecordAlreadyExists, "The identifier is already in use", affected: [contact.identifier])
        }
        let rowid = db.lastInsertedRowID
        let names = ContactIndexing.names(contact)
        try NameIndex.insert(db, .given, rowid: ftsGiven, names: names, contactRowid: rowid)
        try NameIndex.insert(db, .family, rowid: ftsFamily, names: names, contactRowid: rowid)
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
        try record(.addContact, contact.identifier, other: container.identifier)
    }

    /// Inserts a labeled value under a fresh identifier.
    func insertValue(_ item: EncodedLabeledValue, kind: MultiValueKind, position: Int, contactRowid: Int64) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO labeledValue (id, contactRowid, kind, position, label, value, searchKey, createdRevision, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            Contact.makeIdentifier(), contactRowid, kind.rawValue, position, item.label, item.value,
            EncodedLabeledValue.searchKey(kind: kind, value: item.value), seq, seq,
        ])
    }
}

/// The derived data that makes contacts findable and sortable: the FTS name document and the sort keys.
enum ContactIndexing {
    /// The sort key for a name order; `contact` must have the name keys available.
    static func sortKey(_ contact: Contact, _ order: ContactKey) -> String {
        let given = contact.storedString(.givenName)
        let family = contact.storedString(.familyName)
        return TextFolding.sortKey(
            primary: order == .givenName ? given : family, secondary: order == .givenName ? family : given,
            middle: contact.storedString(.middleName), organization: contact.storedString(.organizationName))
    }

    /// The folded name words the search indexes. Folded here as queries are: the tokenizer's own folding leaves
    /// "ł" or "ø" alone.
    static func names(_ contact: Contact) -> String {
        TextFolding.fold(
            ContactKey.searchableNameKeys.map { contact.storedString($0) }.filter { !$0.isEmpty }.joined(separator: " "))
    }
}
