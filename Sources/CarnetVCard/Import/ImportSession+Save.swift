import CarnetStore

/// The last steps of an import: relations to cards later in the file, and saving the links.
extension ImportSession {
    /// RELATED UIDs that named a card later in the file (or none): relations added to the saved contacts.
    mutating func lateRelations() async throws -> [LinkOperation] {
        guard !deferredRelations.isEmpty else { return [] }
        let names = try await storeNames(deferredRelations.map(\.reference.uid))
        var byContact: [String: [(VCardCard.RelatedUID, String)]] = [:]
        var lines: [String: Int] = [:]
        for item in deferredRelations {
            guard let name = nameByUID[item.reference.uid] ?? names[item.reference.uid] else {
                summary.warnings.append(
                    VCardWarning(
                        line: item.reference.line, cardLine: item.cardLine, key: "RELATED",
                        message: "names no card of the file or the store; kept as written"))
                continue
            }
            byContact[item.contact, default: []].append((item.reference, name))
            lines[item.contact] = item.cardLine
        }
        guard !byContact.isEmpty else { return [] }
        var result: [LinkOperation] = []
        let stored = try await store.contacts(withIdentifiers: Array(byContact.keys), keysToFetch: [.contactRelations])
        for contact in stored {
            var update = Contact(updating: contact.identifier)
            update.contactRelations = contact.contactRelations
            for (reference, name) in byContact[contact.identifier] ?? []
            where !Self.addRelation(&update, label: reference.label, name: name) {
                summary.warnings.append(Self.pastRelationLimit(reference, cardLine: lines[contact.identifier] ?? 0))
            }
            if update.contactRelations != contact.contactRelations {
                result.append(
                    LinkOperation(
                        operation: .updateContact(update, baseRevision: nil), cardLine: lines[contact.identifier] ?? 0))
            }
        }
        return result
    }

    /// Saves the links, 10,000 operations a transaction; an operation the store refuses becomes a warning.
    mutating func saveLinks() async throws {
        let operations = try await linkOperations()
        // Groups the links create exist once their save is tried; a refused one only fails its members' adds.
        groups.commit()
        for start in stride(from: 0, to: operations.count, by: StoreLimits.operationsPerSave) {
            let chunk = operations[start..<min(start + StoreLimits.operationsPerSave, operations.count)]
            do {
                summary.historyToken = try await store.execute(
                    SaveRequest(transactionAuthor: importer.transactionAuthor, operations: chunk.map(\.operation))
                ).historyToken
            } catch is StoreError {
                for item in chunk {
                    do {
                        summary.historyToken = try await store.execute(
                            SaveRequest(transactionAuthor: importer.transactionAuthor, operations: [item.operation])
                        ).historyToken
                    } catch let error as StoreError {
                        summary.warnings.append(
                            VCardWarning(
                                line: item.cardLine, cardLine: item.cardLine, key: "groups",
                                message: error.description))
                        // The summary counts the groups that exist.
                        if case .addGroup = item.operation { pendingGroupsCreated -= 1 }
                    }
                }
            }
        }
        commitLinkCounts()
    }

    mutating func commitLinkCounts() {
        summary.groupsCreated += pendingGroupsCreated
        summary.groupCards += pendingGroupCards
        pendingGroupsCreated = 0
        pendingGroupCards = 0
    }
}
