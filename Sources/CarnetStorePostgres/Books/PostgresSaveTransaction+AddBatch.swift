import CarnetStore
import Foundation
import PostgresNIO

/// One `addContact` operation of a batch, with its index in the save for errors.
struct PendingAdd {
    let contact: Contact
    let containerIdentifier: String?
    let operationIndex: Int

    /// Whether a batch can write it: images go one contact at a time, as a save of many images could make one
    /// statement of hundreds of megabytes.
    static func isBatchable(_ contact: Contact) -> Bool {
        contact.values.imageData == nil && contact.values.thumbnailImageData == nil
    }
}

extension PostgresSaveTransaction {
    /// How many adds or deletes one batch writes at most: each table's rows of the batch go in one statement.
    static let batchSize = 500

    /// Adds contacts as ``addContact(_:containerIdentifier:)`` does one by one, with the same checks, errors and
    /// history, in a fixed number of statements: a save of 10,000 adds made 60,000 round trips, and took minutes
    /// with the book's lock held.
    mutating func addContacts(_ adds: [PendingAdd]) async throws {
        guard adds.count > 1 else {
            for add in adds { try await addOne(add) }
            return
        }
        var contacts: [(contact: Contact, container: String, order: Int64)] = []
        contacts.reserveCapacity(adds.count)
        for (add, container) in zip(adds, try await checkedContainers(adds)) {
            contacts.append((add.contact, container, try await nextOrder()))
        }
        try await insertContactRows(contacts)
        let entries = contacts.map { (contact: $0.contact.identifier, entry: NameIndexEntry($0.contact)) }
        try await insertNameIndexRows(entries)
        try await insertValues(
            contacts.flatMap { item in
                MultiValueKind.allCases.flatMap { kind in
                    item.contact.encodedValues(kind).enumerated().map {
                        (contact: item.contact.identifier, kind: kind, position: $0.offset, item: $0.element)
                    }
                }
            })
        contactDelta += contacts.count
        try await record(.addContact, contacts.map { (record: $0.contact.identifier, other: $0.container) })
    }

    private mutating func addOne(_ add: PendingAdd) async throws {
        do {
            try await addContact(add.contact, containerIdentifier: add.containerIdentifier)
        } catch let error as StoreError {
            throw error.at(operation: add.operationIndex)
        }
    }

    /// Checks every add's identifier and container in operation order, in a few queries, and returns each add's
    /// container. The first add that fails throws the error it would throw alone.
    private mutating func checkedContainers(_ adds: [PendingAdd]) async throws -> [String] {
        // Fresh identifiers are looked up too: the one-by-one path meets a fresh one in use (the same contact added
        // twice) at its insert, before any later add's check.
        let used = try await usedIdentifiers(adds.map(\.contact.identifier).filter(Identifiers.isValid))
        var seen: Set<String> = []
        var containers: [String] = []
        for add in adds {
            let identifier = add.contact.identifier
            do {
                guard add.contact.hasFreshIdentifier || Identifiers.isValid(identifier) else {
                    throw StoreError(.recordIdentifierInvalid, "Malformed identifier", affected: [identifier])
                }
                guard !used.contains(identifier), seen.insert(identifier).inserted else {
                    throw StoreError(
                        .insertedRecordAlreadyExists, "The identifier is or was already in use", affected: [identifier])
                }
                containers.append(try await cachedContainer(add.containerIdentifier))
            } catch let error as StoreError {
                throw error.at(operation: add.operationIndex)
            }
        }
        return containers
    }

    /// The identifiers among `identifiers` that any record or value of the book holds, or that were retired.
    private func usedIdentifiers(_ identifiers: [String]) async throws -> Set<String> {
        guard !identifiers.isEmpty else { return [] }
        let rows = try await run(
            """
            SELECT id FROM contact WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            UNION SELECT id FROM contact_group WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            UNION SELECT id FROM container WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            UNION SELECT id FROM labeled_value WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            UNION SELECT id FROM book_retired_identifier WHERE book_id = \(bookID) AND id = ANY(\(identifiers))
            UNION SELECT unified_id FROM contact_link WHERE book_id = \(bookID) AND unified_id = ANY(\(identifiers))
            """
        ).decode(String.self)
        var used: Set<String> = []
        for try await identifier in rows { used.insert(identifier) }
        return used
    }

    private func insertContactRows(_ contacts: [(contact: Contact, container: String, order: Int64)]) async throws {
        let strings = ContactKey.stringKeys.indices.map { slot in
            BatchColumn.values(
                BookSchema.column(ContactKey.stringKeys[slot]), "text",
                contacts.map { $0.contact.values.strings[slot] })
        }
        try await connection.insertBatch(
            into: "contact", book: bookID,
            [
                .values("id", "text", contacts.map(\.contact.identifier)),
                .values("container_id", "text", contacts.map(\.container)),
                .values("contact_type", "int2", contacts.map { Int16($0.contact.values.contactType.rawValue) }),
            ] + strings + [
                .optional("birthday", contacts.map { $0.contact.values.birthday?.storageString }),
                .optional(
                    "non_gregorian_birthday", contacts.map { $0.contact.values.nonGregorianBirthday?.storageString }),
                .values("sort_given", "text", contacts.map { ContactIndexing.sortKey($0.contact, .givenName) }),
                .values("sort_family", "text", contacts.map { ContactIndexing.sortKey($0.contact, .familyName) }),
                .values("created_order", "int8", contacts.map(\.order)),
                .values("created_revision", "int8", contacts.map { _ in seq }),
                .values("revision", "int8", contacts.map { _ in seq }),
                .values("created_at", "float8", contacts.map { _ in now }),
                .values("modified_at", "float8", contacts.map { _ in now }),
            ], logger: logger)
    }

    /// Writes many contacts' name-index rows in two statements; their prefixes' counts change at the end.
    mutating func insertNameIndexRows(_ entries: [(contact: String, entry: NameIndexEntry)]) async throws {
        try await connection.insertNameIndexRows(book: bookID, entries, logger: logger)
        for prefix in entries.flatMap(\.entry.prefixes) { prefixCountChanges[prefix, default: 0] += 1 }
    }
}
