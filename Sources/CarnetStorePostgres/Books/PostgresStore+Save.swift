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
        let result = try await database.write { connection -> SaveResult in
            var transaction = try await PostgresSaveTransaction.begin(
                connection, bookID: bookID, author: author, logger: logger)
            var identifiers: [String] = []
            var index = 0
            // Runs of adds go in batches, a few statements each, in operation order.
            var adds: [PendingAdd] = []
            for request in requests {
                for operation in request.operations {
                    if case .addContact(let contact, let container) = operation {
                        let add = PendingAdd(contact: contact, containerIdentifier: container, operationIndex: index)
                        if add.batchable {
                            adds.append(add)
                            identifiers.append(contact.identifier)
                            if adds.count == PostgresSaveTransaction.addBatchSize {
                                try await transaction.addContacts(adds)
                                adds.removeAll(keepingCapacity: true)
                            }
                            index += 1
                            continue
                        }
                    }
                    try await transaction.addContacts(adds)
                    adds.removeAll(keepingCapacity: true)
                    do {
                        try operation.checkBaseRevision(before: transaction.seq)
                        identifiers.append(try await transaction.apply(operation))
                    } catch let error as StoreError {
                        throw error.at(operation: index)
                    }
                    index += 1
                }
            }
            try await transaction.addContacts(adds)
            if transaction.contactDelta > 0, try await transaction.contactCount() > contactLimit {
                throw StoreError(
                    .quotaExceeded, "An address book holds at most \(contactLimit) contacts; nothing was saved.")
            }
            try await transaction.refreshLinkedNames()
            try await transaction.finish()
            return SaveResult(
                revision: transaction.changed ? transaction.seq : nil,
                historyToken: HistoryToken(storeID: storeID, position: transaction.position).encoded,
                recordIdentifiers: identifiers, deletedMembers: transaction.deletedMembers,
                endedUnifiedContacts: transaction.endedUnified)
        }
        if result.revision != nil {
            await notifier.check()
        }
        return result
    }
}
