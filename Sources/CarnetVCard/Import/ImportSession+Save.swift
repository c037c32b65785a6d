import CarnetStore

/// The last steps of an import: relations to cards later in the file, and saving the links.
extension ImportSession {
    /// RELATED UIDs that named a card later in the file (or none): relations added to the saved contacts. And
    /// relations resolved before a later card of the file with the same UID replaced its contact's values: renamed
    /// to that card's name (as when both cards fall in one batch), keeping their identifiers.
    mutating func lateRelations() async throws -> [LinkOperation] {
        var renames: [String: [(label: String?, from: String, to: String)]] = [:]
        var lines: [String: Int] = [:]
        for item in resolvedRelations where item.cardLine >= replacedAt[item.contact] ?? 0 {
            guard let name = nameByUID[item.reference.uid], !name.hasSameBytes(as: item.name) else {
                continue
            }
            renames[item.contact, default: []].append((item.reference.label, item.name, name))
            lines[item.contact] = item.cardLine
        }
        let names = try await storeNames(deferredRelations.map(\.reference.uid))
        var additions: [String: [(VCardCard.RelatedUID, String)]] = [:]
        for item in deferredRelations where item.cardLine >= replacedAt[item.contact] ?? 0 {
            guard let name = nameByUID[item.reference.uid] ?? names[ExactText(item.reference.uid)]
            else {
                summary.warnings.append(
                    VCardWarning(
                        line: item.reference.line, cardLine: item.cardLine, key: "RELATED",
                        message: "names no card of the file or the store; kept as written"))
                continue
            }
            additions[item.contact, default: []].append((item.reference, name))
            lines[item.contact] = item.cardLine
        }
        guard !lines.isEmpty else { return [] }
        var result: [LinkOperation] = []
        let stored = try await store.contacts(withIdentifiers: Array(lines.keys), keysToFetch: [.contactRelations])
        for contact in stored {
            var update = Contact(updating: contact.identifier)
            update.contactRelations = contact.contactRelations
            for rename in renames[contact.identifier] ?? [] {
                Self.renameRelation(&update, label: rename.label, from: rename.from, to: rename.to)
            }
            for (reference, name) in additions[contact.identifier] ?? []
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

    /// Renames a relation the import resolved, unless a later card replaced it: it keeps its identifier, or goes
    /// when the contact has the renamed relation already or the new name is empty (as ``addRelation`` would).
    static func renameRelation(_ contact: inout Contact, label: String?, from: String, to: String) {
        guard
            let index = contact.contactRelations.firstIndex(where: {
                $0.label.hasSameBytes(as: label) && $0.value.name.hasSameBytes(as: from)
            })
        else { return }
        if to.isEmpty
            || contact.contactRelations.contains(where: {
                $0.label.hasSameBytes(as: label) && $0.value.name.hasSameBytes(as: to)
            })
        {
            contact.contactRelations.remove(at: index)
        } else {
            contact.contactRelations[index].value.name = to
        }
    }

    /// Saves the links, 10,000 operations a transaction; an operation the store refuses becomes a warning.
    ///
    /// - Parameter rereads: Times the links were planned again because another writer made a group of a name that
    ///   the file's group cards make a group of (``GroupNameAbsence``).
    mutating func saveLinks(rereads: Int = 0) async throws {
        let unplanned = self
        let operations = try await linkOperations()
        let newNames = groups.newNames
        // Groups the links create exist once their save is tried; a refused one only fails its members' adds.
        groups.commit()
        for start in stride(from: 0, to: operations.count, by: StoreLimits.operationsPerSave) {
            let chunk = operations[start..<min(start + StoreLimits.operationsPerSave, operations.count)]
            var request = SaveRequest(transactionAuthor: importer.transactionAuthor, operations: chunk.map(\.operation))
            // Checked by the first commit, before anything of the links is written.
            if start == 0 { request.absentGroupNames = newNames }
            do {
                summary.historyToken = try await store.execute(request).historyToken
            } catch let error as StoreError {
                if start == 0, GroupNameAbsence.refused(error), rereads < Self.goneGroupRetries {
                    // Nothing was written: planned again, each such card finds that group by its name and takes
                    // it, as it would have after the other import (two imports at once each made a "Team").
                    self = unplanned
                    try await rereadGroups()
                    return try await saveLinks(rereads: rereads + 1)
                }
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
