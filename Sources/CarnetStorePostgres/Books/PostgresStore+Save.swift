import CarnetStore
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Executes a save request in one transaction: every operation applies, or none does.
    @discardableResult
    public func execute(_ request: SaveRequest) async throws -> SaveResult {
        try await execute(atomically: [request])
    }

    /// Executes several save requests as one commit and one revision.
    @discardableResult
    public func execute(atomically requests: [SaveRequest]) async throws -> SaveResult {
        for request in requests { try request.validateShape() }
        let (author, bookID, storeID, logger) = (requests.first?.transactionAuthor, bookID, storeID, logger)
        let contactLimit = configuration.contactsPerBook
        let operations = requests.reduce(0) { $0 + $1.operations.count }
        let deadline = SaveDeadline(requests)
        let keptUIDs = KeptUIDClaims(requests)
        let result = try await database.write { connection -> SaveResult in
            var transaction = try await PostgresSaveTransaction.begin(
                connection, bookID: bookID, author: author, operations: operations, logger: logger)
            var identifiers: [String] = []
            var index = 0
            // Runs of adds, of deletes and of plain updates go in batches of a few statements each, in operation
            // order: one kind is pending at a time.
            var adds: [PendingAdd] = []
            var deletes: [PendingDelete] = []
            var updates: [PendingUpdate] = []
            func flush() async throws {
                try await transaction.addContacts(adds)
                adds.removeAll(keepingCapacity: true)
                try await transaction.deleteContacts(deletes)
                deletes.removeAll(keepingCapacity: true)
                try await transaction.updateContacts(updates)
                updates.removeAll(keepingCapacity: true)
            }
            var absences = GroupNameAbsence.Pending(requests)
            for request in requests {
                for operation in request.operations {
                    defer { index += 1 }
                    try deadline.check(before: index)
                    switch operation {
                    case .addContact(let contact, let container)
                    where PendingAdd.isBatchable(contact):
                        if !deletes.isEmpty || !updates.isEmpty { try await flush() }
                        adds.append(PendingAdd(contact: contact, containerIdentifier: container, operationIndex: index))
                        identifiers.append(contact.identifier)
                        if adds.count == PostgresSaveTransaction.batchSize { try await flush() }
                        continue
                    case .deleteContact(let identifier):
                        if !adds.isEmpty || !updates.isEmpty { try await flush() }
                        deletes.append(PendingDelete(identifier: identifier, operationIndex: index))
                        identifiers.append(identifier)
                        if deletes.count == PostgresSaveTransaction.batchSize { try await flush() }
                        continue
                    case .updateContact(let contact, let base)
                    where PendingUpdate.isBatchable(contact, baseRevision: base):
                        if !adds.isEmpty || !deletes.isEmpty { try await flush() }
                        updates.append(PendingUpdate(contact: contact, operationIndex: index))
                        identifiers.append(contact.identifier)
                        if updates.count == PostgresSaveTransaction.batchSize { try await flush() }
                        continue
                    default:
                        try await flush()
                    }
                    do {
                        if let due = absences.due(before: operation) { try await transaction.checkAbsent([due]) }
                        try operation.checkBaseRevision(before: transaction.seq)
                        identifiers.append(try await transaction.apply(operation))
                    } catch let error as StoreError {
                        throw error.at(operation: index)
                    }
                }
            }
            try await flush()
            try await transaction.checkAbsent(absences.remaining)
            try await transaction.checkKeptUIDs(keptUIDs)
            if transaction.contactDelta > 0, transaction.contactCount > contactLimit {
                throw StoreError(
                    .quotaExceeded, "An address book holds at most \(contactLimit) contacts; nothing was saved.")
            }
            try await transaction.refreshLinkedNames()
            let mark = try await transaction.historyMark()
            try await transaction.finish()
            return SaveResult(
                revision: transaction.changed ? transaction.seq : nil,
                historyToken: HistoryToken(storeID: storeID, position: transaction.position, mark: mark).encoded,
                recordIdentifiers: identifiers, deletedMembers: transaction.deletedMembers,
                endedUnifiedContacts: transaction.endedUnified,
                groupsLeftByDeletedContacts: transaction.groupsLeftInOrder,
                unifiedContactsChangedByDeletes: transaction.unifiedChangedByDeletes)
        }
        if result.revision != nil {
            await notifier.check()
        }
        return result
    }
}
