import CarnetStore
import Foundation
import PostgresNIO

extension BookImport {
    func insertContacts(_ contacts: [ArchivedContact]) async throws {
        guard !contacts.isEmpty else { return }
        let indexed = contacts.map { archived -> Contact in
            var contact = Contact(fetched: archived.identifier, keys: ContactKeySet(ContactIndexing.sourceKeys))
            contact.values.strings = archived.strings
            return contact
        }
        let strings = ContactKey.stringKeys.indices.map { slot in
            BatchColumn.values(
                BookSchema.column(ContactKey.stringKeys[slot]), "text", contacts.map { $0.strings[slot] })
        }
        try await insertRows(
            into: "contact",
            [
                .values("id", "text", contacts.map(\.identifier)),
                .values("container_id", "text", contacts.map(\.containerID)),
                .values("contact_type", "int2", contacts.map { Int16($0.contactType) }),
            ] + strings + [
                .optional("birthday", contacts.map(\.birthday)),
                .optional("non_gregorian_birthday", contacts.map(\.nonGregorianBirthday)),
                .values("sort_given", "text", indexed.map { ContactIndexing.sortKey($0, .givenName) }),
                .values("sort_family", "text", indexed.map { ContactIndexing.sortKey($0, .familyName) }),
                .values("created_order", "int8", contacts.map(\.createdOrder)),
                .values("created_revision", "int8", contacts.map(\.createdRevision)),
                .values("revision", "int8", contacts.map(\.revision)),
                .values("created_at", "float8", contacts.map(\.createdAt)),
                .values("modified_at", "float8", contacts.map(\.modifiedAt)),
            ])
        try await analyzeIfGrown(adding: contacts.count)
        // Images one contact at a time: a batch of them in one statement could reach gigabytes.
        for contact in contacts where contact.imageData != nil || contact.thumbnailImageData != nil {
            try await connection.rows(
                """
                UPDATE contact SET image_data = \(contact.imageData), thumbnail_image_data = \(contact.thumbnailImageData)
                WHERE book_id = \(bookID) AND id = \(contact.identifier)
                """, logger: logger)
        }
        try await connection.insertNameIndexRows(
            book: bookID, indexed.map { (contact: $0.identifier, entry: NameIndexEntry($0)) }, logger: logger)
        try await insertKeyRevisions(contacts)
        try await insertLabeledValues(contacts)
    }

    private func insertKeyRevisions(_ contacts: [ArchivedContact]) async throws {
        let rows = contacts.flatMap { contact in
            contact.keyRevisions.map { (contact: contact.identifier, key: $0.key, revision: $0.value) }
        }
        guard !rows.isEmpty else { return }
        try await insertRows(
            into: "contact_key_revision",
            [
                .values("contact_id", "text", rows.map(\.contact)), .values("key", "text", rows.map(\.key)),
                .values("revision", "int8", rows.map(\.revision)),
            ])
    }

    private func insertLabeledValues(_ contacts: [ArchivedContact]) async throws {
        let rows = contacts.flatMap { contact in contact.labeledValues.map { (contact: contact.identifier, value: $0) }
        }
        guard !rows.isEmpty else { return }
        let searchKeys = rows.map { row in
            MultiValueKind(rawValue: row.value.kind).flatMap {
                EncodedLabeledValue.searchKey(kind: $0, value: row.value.value)
            }
        }
        try await insertRows(
            into: "labeled_value",
            [
                .values("id", "text", rows.map(\.value.identifier)), .values("contact_id", "text", rows.map(\.contact)),
                .values("kind", "int2", rows.map { Int16($0.value.kind) }),
                .values("position", "int4", rows.map { Int32($0.value.position) }),
                .optional("label", rows.map(\.value.label)), .values("value", "text", rows.map(\.value.value)),
                .optional("search_key", searchKeys),
                .values("created_revision", "int8", rows.map(\.value.createdRevision)),
                .values("revision", "int8", rows.map(\.value.revision)),
            ])
    }
}
