import CarnetStore
import Foundation
import PostgresNIO

/// A contact's stored single values and revisions, loaded inside a save to compare an update against.
struct PostgresStoredContact {
    let containerID: String
    let createdRevision: Int64
    let revision: Int64
    var contact: Contact

    static let singleValueKeys = ContactKeySet(
        ContactKey.stringKeys + [.contactType, .birthday, .nonGregorianBirthday])

    static func load(_ transaction: PostgresSaveTransaction, identifier: String) async throws -> PostgresStoredContact?
    {
        let rows = try await transaction.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT id, \(columns) FROM contact WHERE book_id = $1 AND id = $2 FOR UPDATE
                    """, binds: binds(transaction.bookID, identifier))
        ).collect()
        return try rows.first.map { try decode(Array($0)) }
    }

    /// The stored contacts among `identifiers`, locked for the save, by identifier: one statement for a run of
    /// updates (``PostgresSaveTransaction/updateContacts(_:)``).
    static func loadMany(_ transaction: PostgresSaveTransaction, identifiers: [String]) async throws
        -> [String: PostgresStoredContact]
    {
        var bindings = PostgresBindings()
        bindings.append(transaction.bookID)
        bindings.append(identifiers)
        var stored: [String: PostgresStoredContact] = [:]
        for try await row in try await transaction.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT id, \(columns) FROM contact WHERE book_id = $1 AND id = ANY($2) FOR UPDATE
                    """, binds: bindings))
        {
            let contact = try decode(Array(row))
            stored[contact.contact.identifier] = contact
        }
        return stored
    }

    private static let columns = """
        container_id, created_revision, revision, contact_type, birthday, non_gregorian_birthday,
        \(PostgresSaveTransaction.stringColumns)
        """

    /// A row of `id, ` ``columns``.
    private static func decode(_ cells: [PostgresCell]) throws -> PostgresStoredContact {
        var contact = Contact(fetched: try cells[0].decode(String.self), keys: singleValueKeys)
        contact.values.contactType = ContactType(rawValue: Int(try cells[4].decode(Int16.self))) ?? .person
        contact.values.birthday = try cells[5].decode(String?.self).flatMap(ContactDate.init(storageString:))
        contact.values.nonGregorianBirthday = try cells[6].decode(String?.self).flatMap(
            ContactDate.init(storageString:))
        for slot in ContactKey.stringKeys.indices {
            contact.values.strings[slot] = try cells[7 + slot].decode(String.self)
        }
        return PostgresStoredContact(
            containerID: try cells[1].decode(String.self), createdRevision: try cells[2].decode(Int64.self),
            revision: try cells[3].decode(Int64.self), contact: contact)
    }

    /// The revisions at which keys changed after the contact was added; only needed when it changed since the base.
    func keyRevisions(_ transaction: PostgresSaveTransaction, since base: Int64?) async throws -> [ContactKey: Int64] {
        guard let base, revision > base else { return [:] }
        var result: [ContactKey: Int64] = [:]
        for (key, revision) in try await transaction.run(
            """
            SELECT key, revision FROM contact_key_revision
            WHERE book_id = \(transaction.bookID) AND contact_id = \(contact.identifier)
            """
        ).decode((String, Int64).self).array() {
            if let key = ContactKey(rawValue: key) { result[key] = revision }
        }
        return result
    }

    func labeledValues(_ transaction: PostgresSaveTransaction, kind: MultiValueKind) async throws
        -> [StoredLabeledValue]
    {
        try await transaction.run(
            """
            SELECT id, label, value, position, created_revision, revision FROM labeled_value
            WHERE book_id = \(transaction.bookID) AND contact_id = \(contact.identifier) AND kind = \(Int16(kind.rawValue))
            ORDER BY position
            """
        ).decode((String, String?, String, Int32, Int64, Int64).self).array().map {
            StoredLabeledValue(
                rowid: 0, identifier: $0.0, label: $0.1, value: $0.2, position: Int($0.3), createdRevision: $0.4,
                revision: $0.5)
        }
    }

    /// The label and value a labeled value had at `revision`: the content the first change after it replaced.
    static func valueContent(_ transaction: PostgresSaveTransaction, identifier: String, at revision: Int64)
        async throws -> EncodedLabeledValue?
    {
        try await transaction.run(
            """
            SELECT label, value FROM labeled_value_version
            WHERE book_id = \(transaction.bookID) AND value_id = \(identifier) AND superseded_revision > \(revision)
            ORDER BY superseded_revision LIMIT 1
            """
        ).decode((String?, String).self).array().first.map {
            EncodedLabeledValue(identifier: identifier, label: $0.0, value: $0.1)
        }
    }

    func retiredValueRevision(_ transaction: PostgresSaveTransaction, identifier: String) async throws -> Int64? {
        try await transaction.run(
            """
            SELECT revision FROM book_retired_identifier
            WHERE book_id = \(transaction.bookID) AND id = \(identifier)
                AND kind = \(Int16(RetiredKind.labeledValue.rawValue)) AND owner_id = \(contact.identifier)
            """
        ).decode(Int64.self).array().first
    }

    /// Whether the update sets a single-value key to another value than the stored one.
    func differs(_ key: ContactKey, from update: Contact, _ transaction: PostgresSaveTransaction) async throws -> Bool {
        if let differs = contact.singleValueDiffers(key, from: update) { return differs }
        let new = update.values
        switch key {
        case .imageData, .thumbnailImageData:
            let column = key == .imageData ? "image_data" : "thumbnail_image_data"
            let current =
                try await transaction.run(
                    PostgresQuery(
                        unsafeSQL: "SELECT \(column) FROM contact WHERE book_id = $1 AND id = $2",
                        binds: Self.binds(transaction.bookID, contact.identifier))
                ).decode(Data?.self).array().first ?? nil
            return current != (key == .imageData ? new.imageData : new.thumbnailImageData)
        default:
            return false
        }
    }

    static func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }
}
