import CarnetStore

/// `--link-duplicates`: each imported card that is the same person as a contact of another container is linked to
/// it (``SaveRequest/link(contactsWithIdentifiers:)``), never merged, so every account keeps its own card.
extension ImportSession {
    /// The evidence, strongest first: a shared email address, a shared phone number, the same full name (given and
    /// family, folded). The first contact of another container found gets the link; one already linked brings its
    /// unified contact, which the card joins.
    mutating func linkDuplicates() async throws {
        guard importer.linkDuplicates else { return }
        let keys: ContactKeySet = [.givenName, .familyName, .emailAddresses, .phoneNumbers]
        var operations: [(SaveOperation, Int)] = []
        for chunk in importedContacts.chunked(500) {
            let linked = Set(try await store.linkGroups(containing: chunk.map(\.contact)).flatMap(\.members))
            let lines = Dictionary(chunk.map { ($0.contact, $0.cardLine) }, uniquingKeysWith: { first, _ in first })
            let contacts = try await store.contacts(withIdentifiers: chunk.map(\.contact), keysToFetch: keys)
            for contact in contacts where !linked.contains(contact.identifier) {
                if let match = try await samePerson(as: contact) {
                    operations.append(
                        (.linkContacts(identifiers: [match, contact.identifier]), lines[contact.identifier] ?? 0))
                }
            }
        }
        for start in stride(from: 0, to: operations.count, by: 500) {
            let batch = operations[start..<min(start + 500, operations.count)]
            do {
                summary.historyToken = try await store.execute(
                    SaveRequest(transactionAuthor: importer.transactionAuthor, operations: batch.map(\.0))
                ).historyToken
                summary.linked += batch.count
            } catch is StoreError {
                // One refused link (a unified contact full) fails the batch: each alone, the refused ones warned.
                for (operation, line) in batch {
                    do {
                        summary.historyToken = try await store.execute(
                            SaveRequest(transactionAuthor: importer.transactionAuthor, operations: [operation])
                        ).historyToken
                        summary.linked += 1
                    } catch let error as StoreError {
                        summary.warnings.append(
                            VCardWarning(line: line, cardLine: line, key: "link", message: error.description))
                    }
                }
            }
        }
    }

    /// A contact of another container that is the same person, by the strongest evidence.
    private func samePerson(as contact: Contact) async throws -> String? {
        var predicates = contact.emailAddresses.map { ContactPredicate.matchingEmailAddress($0.value) }
        predicates += contact.phoneNumbers.map { ContactPredicate.matchingPhoneNumber($0.value) }
        let given = TextFolding.fold(contact.givenName)
        let family = TextFolding.fold(contact.familyName)
        if !given.isEmpty, !family.isEmpty {
            predicates.append(.matchingName(contact.givenName + " " + contact.familyName))
        }
        for (index, predicate) in predicates.enumerated() {
            let byName = index == predicates.count - 1 && predicate.matchingName != nil
            let found = try await store.contacts(
                ContactFetchRequest(
                    predicate: predicate, keysToFetch: byName ? [.givenName, .familyName] : [], page: .first(50)))
            for candidate in found.contacts
            where candidate.identifier != contact.identifier
                && candidate.containerIdentifier != contact.containerIdentifier
            {
                if byName,
                    TextFolding.fold(candidate.givenName) != given || TextFolding.fold(candidate.familyName) != family
                {
                    continue
                }
                return candidate.identifier
            }
        }
        return nil
    }
}
