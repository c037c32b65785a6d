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
        let stringColumns = ContactKey.stringKeys.map {
            (name: BookSchema.column($0), type: "text", expression: String?.none)
        }
        try await insertRows(
            into: "contact",
            [("id", "text", nil), ("container_id", "text", nil), ("contact_type", "int2", nil)] + stringColumns + [
                ("birthday", "text", "NULLIF(u_birthday, '')"),
                ("non_gregorian_birthday", "text", "NULLIF(u_non_gregorian_birthday, '')"),
                ("sort_given", "text", nil), ("sort_family", "text", nil), ("created_order", "int8", nil),
                ("created_revision", "int8", nil), ("revision", "int8", nil), ("created_at", "float8", nil),
                ("modified_at", "float8", nil),
            ]
        ) { bindings in
            bindings.append(contacts.map(\.identifier))
            bindings.append(contacts.map(\.containerID))
            bindings.append(contacts.map { Int16($0.contactType) })
            for slot in ContactKey.stringKeys.indices { bindings.append(contacts.map { $0.strings[slot] }) }
            bindings.append(contacts.map { $0.birthday ?? "" })
            bindings.append(contacts.map { $0.nonGregorianBirthday ?? "" })
            bindings.append(indexed.map { ContactIndexing.sortKey($0, .givenName) })
            bindings.append(indexed.map { ContactIndexing.sortKey($0, .familyName) })
            bindings.append(contacts.map(\.createdOrder))
            bindings.append(contacts.map(\.createdRevision))
            bindings.append(contacts.map(\.revision))
            bindings.append(contacts.map(\.createdAt))
            bindings.append(contacts.map(\.modifiedAt))
        }
        try await analyzeIfGrown(adding: contacts.count)
        for contact in contacts where contact.imageData != nil || contact.thumbnailImageData != nil {
            try await connection.query(
                """
                UPDATE contact SET image_data = \(contact.imageData), thumbnail_image_data = \(contact.thumbnailImageData)
                WHERE book_id = \(bookID) AND id = \(contact.identifier)
                """, logger: logger)
        }
        var words: [(word: String, contact: String)] = []
        for contact in indexed {
            for word in Set(TextFolding.words(ContactIndexing.names(contact))) {
                words.append((word, contact.identifier))
            }
        }
        if !words.isEmpty {
            try await insertRows(into: "contact_name_word", [("word", "text", nil), ("contact_id", "text", nil)]) {
                bindings in
                bindings.append(words.map(\.word))
                bindings.append(words.map(\.contact))
            }
        }
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
            [("contact_id", "text", nil), ("key", "text", nil), ("revision", "int8", nil)]
        ) { bindings in
            bindings.append(rows.map(\.contact))
            bindings.append(rows.map(\.key))
            bindings.append(rows.map(\.revision))
        }
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
                ("id", "text", nil), ("contact_id", "text", nil), ("kind", "int2", nil), ("position", "int4", nil),
                ("label", "text", "CASE WHEN u_label_null THEN NULL ELSE u_label END"), ("label_null", "bool", ""),
                ("value", "text", nil),
                ("search_key", "text", "CASE WHEN u_search_key_null THEN NULL ELSE u_search_key END"),
                ("search_key_null", "bool", ""), ("created_revision", "int8", nil), ("revision", "int8", nil),
            ]
        ) { bindings in
            bindings.append(rows.map(\.value.identifier))
            bindings.append(rows.map(\.contact))
            bindings.append(rows.map { Int16($0.value.kind) })
            bindings.append(rows.map { Int32($0.value.position) })
            bindings.append(rows.map { $0.value.label ?? "" })
            bindings.append(rows.map { $0.value.label == nil })
            bindings.append(rows.map(\.value.value))
            bindings.append(searchKeys.map { $0 ?? "" })
            bindings.append(searchKeys.map { $0 == nil })
            bindings.append(rows.map(\.value.createdRevision))
            bindings.append(rows.map(\.value.revision))
        }
    }
}
