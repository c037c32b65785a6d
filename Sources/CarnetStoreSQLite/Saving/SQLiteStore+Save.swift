import CarnetStore
import GRDB

extension SQLiteStore {
    /// Executes a save request in one SQLite transaction: every operation applies, or none does.
    ///
    /// - Returns: the commit's revision, the history token after it, and the saved records' identifiers.
    /// - Throws: ``StoreError``, naming the failing operation's index and the records at fault.
    @discardableResult
    public func execute(_ request: SaveRequest) async throws -> SaveResult {
        try await execute(atomically: [request])
    }

    /// Executes several save requests as one commit: one SQLite transaction and one revision, so all of them
    /// apply or none does. Each request keeps the ``StoreLimits/operationsPerSave`` limit; the first one's
    /// transaction author is recorded. What a strict vCard import needs: any number of cards, written whole or
    /// not at all.
    ///
    /// - Returns: as ``execute(_:)``, with the identifiers of every request's operations in order.
    /// - Throws: ``StoreError``; its `operationIndex` counts operations across the requests.
    @discardableResult
    public func execute(atomically requests: [SaveRequest]) async throws -> SaveResult {
        for request in requests { try Self.validate(request) }
        let author = requests.first?.transactionAuthor
        let storeID = self.storeID
        let contactLimit = configuration.contactsPerBook
        let addsContacts = requests.contains { request in
            request.operations.contains {
                if case .addContact = $0 { true } else { false }
            }
        }
        let result = try await mappingDatabaseErrors {
            try await writer.writeWithoutTransaction { db in
                var result: SaveResult?
                try db.inTransaction(.immediate) {
                    var transaction = try SaveTransaction(db: db, author: author)
                    var identifiers: [String] = []
                    var index = 0
                    for request in requests {
                        for operation in request.operations {
                            do {
                                identifiers.append(try transaction.apply(operation))
                            } catch let error as StoreError {
                                throw error.at(operation: index)
                            }
                            index += 1
                        }
                    }
                    try transaction.storeContactCount()
                    if addsContacts, try SaveTransaction.contactCount(db) > contactLimit {
                        throw StoreError(
                            .quotaExceeded, "An address book holds at most \(contactLimit) contacts; nothing was saved."
                        )
                    }
                    let position = try HistoryStore.currentPosition(db)
                    result = SaveResult(
                        revision: transaction.changed ? transaction.seq : nil,
                        historyToken: HistoryToken(storeID: storeID, position: position).encoded,
                        recordIdentifiers: identifiers)
                    // A save that changed nothing leaves no trace, not even a used-up revision.
                    return transaction.changed ? .commit : .rollback
                }
                // inTransaction returns only after its closure ran, so this holds; a typed error, never a trap.
                guard let result else {
                    throw StoreError(.storageFailure, "The save's transaction ended without a result")
                }
                return result
            }
        }
        if result.revision != nil {
            await notifier.check()
            await maintenance.compactIfDue(self)
        }
        return result
    }

    /// The checks that need no database: shapes, limits and well-formed values.
    static func validate(_ request: SaveRequest) throws {
        if let author = request.transactionAuthor, !Validation.text(author, limit: StoreLimits.labelBytes) {
            throw StoreError(.validationFailed, "Invalid transaction author", keyPaths: ["transactionAuthor"])
        }
        guard request.operations.count <= StoreLimits.operationsPerSave else {
            throw StoreError(
                .validationFailed, "A save holds at most \(StoreLimits.operationsPerSave) operations",
                keyPaths: ["operations"])
        }
        for (index, operation) in request.operations.enumerated() {
            var bad: [String] = []
            var identifiers: [String] = []
            switch operation {
            case .addContact(let contact, let container):
                bad = Validation.contact(contact, keys: .all)
                identifiers = [contact.identifier] + (container.map { [$0] } ?? [])
            case .updateContact(let contact, _):
                bad = Validation.contact(contact, keys: contact.modifiedKeys)
                identifiers = [contact.identifier]
            case .addGroup(let group, let container):
                bad = Validation.group(group)
                identifiers = [group.identifier] + (container.map { [$0] } ?? [])
            case .updateGroup(let group, _):
                bad = Validation.group(group)
                identifiers = [group.identifier]
            case .deleteContact(let id), .deleteGroup(let id):
                identifiers = [id]
            case .addMember(let contact, let group), .removeMember(let contact, let group):
                identifiers = [contact, group]
            }
            if let malformed = identifiers.first(where: { !Identifiers.isValid($0) }) {
                throw StoreError(
                    .recordIdentifierInvalid, "Malformed identifier", affected: [malformed], operationIndex: index)
            }
            // A labeled value's identifier is an identifier too: malformed, it is the identifier code (205), as
            // for records, not a property's.
            let badIdentifiers = bad.filter { $0.hasSuffix(".identifier") }
            if !badIdentifiers.isEmpty {
                throw StoreError(
                    .recordIdentifierInvalid, "Malformed labeled value identifier", affected: [identifiers[0]],
                    operationIndex: index, keyPaths: badIdentifiers.sorted())
            }
            if !bad.isEmpty {
                throw StoreError(
                    .validationFailed, "Invalid properties", affected: [identifiers[0]], operationIndex: index,
                    keyPaths: bad.sorted())
            }
        }
    }
}
