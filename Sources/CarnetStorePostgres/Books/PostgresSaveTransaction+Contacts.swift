import CarnetStore
import Foundation
import PostgresNIO

extension PostgresSaveTransaction {
    /// The string keys' columns, in ``ContactKey/stringKeys`` order.
    static let stringColumns = ContactKey.stringKeys.map(BookSchema.column).joined(separator: ", ")

    mutating func addContact(_ contact: Contact, containerIdentifier: String?) async throws {
        // A UUID made in this process cannot name a group, container or value; it can still come back after a
        // delete, which the retired check catches, or twice, which the primary key does.
        if contact.hasFreshIdentifier {
            try await ensureNotRetired(contact.identifier)
        } else {
            try await ensureUnused(contact.identifier)
        }
        let container = try await cachedContainer(containerIdentifier)
        let values = contact.values
        let order = try await nextOrder()
        var query = PostgresQuery(unsafeSQL: "")
        var bindings = PostgresBindings()
        bindings.append(bookID)
        bindings.append(contact.identifier)
        bindings.append(container)
        bindings.append(Int16(values.contactType.rawValue))
        for value in values.strings { bindings.append(value) }
        bindings.append(values.birthday?.storageString)
        bindings.append(values.nonGregorianBirthday?.storageString)
        try bindings.append(values.imageData)
        try bindings.append(values.thumbnailImageData)
        bindings.append(ContactIndexing.sortKey(contact, .givenName))
        bindings.append(ContactIndexing.sortKey(contact, .familyName))
        bindings.append(order)
        bindings.append(seq)
        bindings.append(seq)
        bindings.append(now)
        bindings.append(now)
        let placeholders = (1...bindings.count).map { "$\($0)" }.joined(separator: ", ")
        query = PostgresQuery(
            unsafeSQL: """
                INSERT INTO contact (book_id, id, container_id, contact_type, \(Self.stringColumns), birthday,
                    non_gregorian_birthday, image_data, thumbnail_image_data, sort_given, sort_family, created_order,
                    created_revision, revision, created_at, modified_at)
                VALUES (\(placeholders))
                """, binds: bindings)
        do {
            try await run(query)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // A fresh identifier skipped the check of identifiers in use: only the same contact added twice, or
            // again after its save committed, meets one. As the check's error, with the operation's index.
            throw StoreError(
                .insertedRecordAlreadyExists, "The identifier is or was already in use", affected: [contact.identifier])
        }
        try await insertNameIndex(contact.identifier, NameIndexEntry(contact))
        try await insertValues(
            MultiValueKind.allCases.flatMap { kind in
                contact.encodedValues(kind).enumerated().map { (kind, $0.offset, $0.element) }
            }, contact: contact.identifier)
        contactDelta += 1
        try await record(.addContact, contact.identifier, other: container)
    }

    /// Indexes the contact's folded name words and their prefixes for name search, in one statement. The prefixes'
    /// counts change once, at the end of the save (``applyPrefixCounts()``).
    mutating func insertNameIndex(_ contact: String, _ entry: NameIndexEntry) async throws {
        guard !entry.words.isEmpty else { return }
        try await run(
            """
            WITH words AS (
                INSERT INTO contact_name_word (book_id, word, contact_id)
                SELECT \(bookID), word, \(contact) FROM unnest(\(entry.words)::text[]) AS word
            )
            INSERT INTO contact_name_prefix (book_id, prefix, contact_id, sort_given, sort_family, words)
            SELECT \(bookID), prefix, \(contact), \(entry.sortGiven), \(entry.sortFamily), \(entry.wordList)
            FROM unnest(\(entry.prefixes)::text[]) AS prefix
            """)
        for prefix in entry.prefixes { prefixCountChanges[prefix, default: 0] += 1 }
    }

    /// Removes the contacts from the name indexes, in one statement; their prefixes' counts change at the end.
    mutating func removeNameIndex(_ contacts: [String]) async throws {
        let removed = try await run(
            """
            WITH words AS (
                DELETE FROM contact_name_word WHERE book_id = \(bookID) AND contact_id = ANY(\(contacts))
            )
            DELETE FROM contact_name_prefix WHERE book_id = \(bookID) AND contact_id = ANY(\(contacts))
            RETURNING prefix
            """
        ).decode(String.self)
        for try await prefix in removed { prefixCountChanges[prefix, default: 0] -= 1 }
    }

    /// Inserts one contact's new labeled values under fresh identifiers, in one statement.
    func insertValues(_ values: [(kind: MultiValueKind, position: Int, item: EncodedLabeledValue)], contact: String)
        async throws
    {
        try await insertValues(values.map { (contact, $0.kind, $0.position, $0.item) })
    }

    /// Inserts new labeled values of any contacts under fresh identifiers, in one statement.
    func insertValues(
        _ values: [(contact: String, kind: MultiValueKind, position: Int, item: EncodedLabeledValue)]
    ) async throws {
        guard !values.isEmpty else { return }
        try await connection.insertBatch(
            into: "labeled_value", book: bookID,
            [
                .values("id", "text", values.map { _ in Contact.makeIdentifier() }),
                .values("contact_id", "text", values.map(\.contact)),
                .values("kind", "int2", values.map { Int16($0.kind.rawValue) }),
                .values("position", "int4", values.map { Int32($0.position) }),
                .optional("label", values.map(\.item.label)),
                .values("value", "text", values.map(\.item.value)),
                .optional(
                    "search_key", values.map { EncodedLabeledValue.searchKey(kind: $0.kind, value: $0.item.value) }),
                .values("created_revision", "int8", values.map { _ in seq }),
                .values("revision", "int8", values.map { _ in seq }),
            ], logger: logger)
    }

    mutating func deleteContact(_ identifier: String) async throws {
        let groups = try await groupsOf([identifier])
        try await unlinkBeforeDelete(identifier)
        try await removeNameIndex([identifier])
        let deleted = try await run(
            "DELETE FROM contact WHERE book_id = \(bookID) AND id = \(identifier) RETURNING id"
        ).collect()
        guard !deleted.isEmpty else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        // Labeled values, memberships and key revisions go with the row (ON DELETE CASCADE).
        contactDelta -= 1
        try await retire([identifier], kind: .contact)
        let (events, left) = deleteEvents([identifier], groups: groups)
        try await reviseGroups(left)
        try await record(events)
    }
}
