import CarnetStore
import GRDB

extension SQLiteStore {
    /// Refuses every save from now on, with RECORD_DOES_NOT_EXIST: the book is being deleted. Reads go on until
    /// the deletion closes it.
    func refuseSaves() { database.refuseSaves() }

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
        guard !database.refusesSaves else {
            throw StoreError(.recordDoesNotExist, "The address book was deleted; nothing was saved.")
        }
        for request in requests { try request.validateShape() }
        let author = requests.first?.transactionAuthor
        let storeID = self.storeID
        let contactLimit = configuration.contactsPerBook
        let deadline = SaveDeadline(requests)
        let keptUIDs = KeptUIDClaims(requests)
        let addsContacts = requests.contains { request in
            request.operations.contains {
                if case .addContact = $0 { true } else { false }
            }
        }
        let result = try await movedFileMapped {
            try await mappingDatabaseErrors {
                try await writerAccess { db in
                    var result: SaveResult?
                    try db.inTransaction(.immediate) {
                        // Another process deleted the book's file (`carnet book delete` against a running server's
                        // folder) or replaced it: the commit would go to a file no one will open again, acknowledged
                        // and lost. Checked under the write lock, two `stat`s.
                        guard !db.fileHasMoved else { throw FileMoved() }
                        var transaction = try SaveTransaction(db: db, author: author)
                        var identifiers: [String] = []
                        var index = 0
                        var absences = GroupNameAbsence.Pending(requests)
                        for request in requests {
                            for operation in request.operations {
                                do {
                                    try deadline.check(before: index)
                                    if let due = absences.due(before: operation) { try transaction.checkAbsent([due]) }
                                    try operation.checkBaseRevision(before: transaction.seq)
                                    identifiers.append(try transaction.apply(operation))
                                } catch let error as StoreError {
                                    throw error.at(operation: index)
                                }
                                index += 1
                            }
                        }
                        try transaction.checkAbsent(absences.remaining)
                        try transaction.checkKeptUIDs(keptUIDs)
                        try transaction.refreshLinkedNames()
                        try transaction.storeContactCount()
                        if addsContacts, try SaveTransaction.contactCount(db) > contactLimit {
                            throw StoreError(
                                .quotaExceeded,
                                "An address book holds at most \(contactLimit) contacts; nothing was saved."
                            )
                        }
                        let position = try HistoryStore.currentPosition(db)
                        result = SaveResult(
                            revision: transaction.changed ? transaction.seq : nil,
                            historyToken: try HistoryStore.token(db, storeID: storeID, at: position).encoded,
                            recordIdentifiers: identifiers, deletedMembers: transaction.deletedMembers,
                            endedUnifiedContacts: transaction.endedUnified,
                            groupsLeftByDeletedContacts: transaction.groupsLeftIdentifiers,
                            unifiedContactsChangedByDeletes: transaction.unifiedChangedByDeletes)
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
        }
        if result.revision != nil {
            await notifier.check()
            await maintenance.compactIfDue(self)
        }
        return result
    }
}

/// The book's file was found removed or replaced under the open connection.
private struct FileMoved: Error {}

extension SQLiteStore {
    /// Runs a save, its ``FileMoved`` made the store error it is: RECORD_DOES_NOT_EXIST when the book was deleted
    /// (by another process, whose deletion unlists it first), STORAGE_FAILURE when it is still listed and its file
    /// was lost (removed by hand). Both left it RECORD_DOES_NOT_EXIST, which a client takes for a deleted book (an
    /// outside tester's find). The pool closes the store when it is given back.
    fileprivate func movedFileMapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch is FileMoved {
            database.noteFileLost()
            let check = database.listedCheck.withLock { $0 }
            if let check, (try? await check()) == true {
                throw StoreError(
                    .storageFailure,
                    "The address book's file was removed or replaced while the book was open; nothing was saved. "
                        + "Restore it from a backup, or delete the book.")
            }
            throw StoreError(
                .recordDoesNotExist,
                "The address book's file was deleted or replaced by another process; nothing was saved.")
        }
    }

    /// Whether a save found the file removed or replaced under the open store.
    var hasLostItsFile: Bool { database.hasLostItsFile }
}
