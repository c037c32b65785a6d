import CarnetStore

extension ImportSession {
    /// The operations that save a batch of contact cards: adds, minimal updates, relations resolved by UID.
    /// Reads the store; writes nothing. The cards are as ``VCardImporter/prepared(_:)`` leaves them (their readers
    /// prepare them: a lenient import's on its reading thread).
    ///
    /// - Parameter checkingIdentifiers: Give an added card a new identifier when its own is retired or in use.
    ///   A first try of a lenient batch skips the check (the store refuses such an add, and the batch is planned
    ///   again with it); a strict import always checks.
    mutating func plan(_ cards: [VCardCard], checkingIdentifiers: Bool = true) async throws -> [PlannedCard] {
        // Byte for byte: UIDs that differ only as "x-é" and "x-e\u{301}" are two cards, as the store finds them.
        let identities = cards.map { ExactText($0.uid ?? $0.contact.identifier) }
        let existing = try await matches(cards, identities)
        let unmatched = zip(cards, identities).compactMap { card, identity in
            existing[identity] == nil && plannedContacts[identity] == nil ? card.contact.identifier : nil
        }
        let unavailable = checkingIdentifiers ? try await store.unavailableIdentifiers(unmatched) : []
        let names = try await storeNames(cards.flatMap { $0.relatedUIDs.map(\.uid) })
        var lastPosition: [ExactText: Int] = [:]
        for (position, identity) in identities.enumerated() { lastPosition[identity] = position }
        var result: [PlannedCard] = []
        result.reserveCapacity(cards.count)
        for (position, (card, identity)) in zip(cards, identities).enumerated() {
            var card = card
            var planned = PlannedCard(card: card, identity: identity.text, contactIdentifier: card.contact.identifier)
            for reference in card.relatedUIDs {
                guard let name = nameByUID[reference.uid] ?? names[ExactText(reference.uid)] else {
                    planned.deferred.append(reference)
                    continue
                }
                if Self.addRelation(&card.contact, label: reference.label, name: name) {
                    planned.resolved.append((reference, name))
                } else {
                    planned.warnings.append(Self.pastRelationLimit(reference, cardLine: card.line))
                }
            }
            // A card repeating an earlier card's UID replaces what that card will have saved.
            let current = plannedContacts[identity] ?? existing[identity]
            // One that a later card of this batch repeats saves nothing: the later card is compared with the
            // stored contact instead, so a re-import of the file changes nothing (both cards applied in turn
            // changed it twice, back to the same). Not for an add: the later card updates what this one adds.
            if let current, lastPosition[identity] != position {
                planned.contactIdentifier = current.identifier
                result.append(planned)
                continue
            }
            if let current {
                planned.contactIdentifier = current.identifier
                // A UID the contact keeps (it names a deleted contact, or is no identifier) stays kept.
                if let uidLine = current.vCardProperties.first(where: { KeptVCardLine.uid(in: $0.value) != nil })?
                    .value,
                    !card.contact.vCardProperties.contains(where: { $0.value.hasSameBytes(as: uidLine) })
                {
                    card.contact.vCardProperties.insert(LabeledValue(value: uidLine), at: 0)
                }
                if let update = ContactDiff.update(current, to: card.contact) {
                    planned.operation = .updateContact(update, baseRevision: nil)
                    planned.outcome = .updated
                }
            } else {
                if unavailable.contains(card.contact.identifier) {
                    // A deleted contact's identifier is never handed out again: a new one, and the card's UID
                    // kept so that export writes it and a later import finds this contact by it.
                    card.contact = card.contact.withIdentifier(Contact.makeIdentifier())
                    let uidLine = "UID:\(identity.text)"
                    if !card.contact.vCardProperties.contains(where: { $0.value.hasSameBytes(as: uidLine) }) {
                        card.contact.vCardProperties.insert(LabeledValue(value: uidLine), at: 0)
                    }
                }
                planned.contactIdentifier = card.contact.identifier
                planned.operation = .addContact(card.contact, containerIdentifier: importer.containerIdentifier)
                planned.outcome = .added
            }
            // The reader checked every key and kept aside what the store refuses; what this plan added to (the
            // kept properties, relations resolved by UID) is left to check.
            let keys: ContactKeySet =
                card.relatedUIDs.isEmpty ? [.vCardProperties] : [.vCardProperties, .contactRelations]
            let problems =
                card.unresolvedProblems + SaveRequest.validationProblems(ofNewContact: card.contact, keys: keys)
            if !problems.isEmpty {
                planned.problem = VCardIssue(
                    line: card.line, message: "invalid values: \(problems.joined(separator: ", "))")
            }
            if planned.problem == nil {
                switch (planned.operation, current) {
                case (.addContact(let contact, _)?, _): plannedContacts[identity] = contact
                case (.updateContact(let update, _)?, let current?):
                    plannedContacts[identity] = ContactDiff.applying(update, to: current)
                default: break
                }
            }
            planned.card = card
            result.append(planned)
        }
        return result
    }

    /// Adds a relation unless the contact has one with that label and name already (a re-import of a card that
    /// carries both the relation and its RELATED UID). False when the contact holds the store's most relations
    /// already: the RELATED line stays kept, and the card imports (a 101st relation refused it whole).
    @discardableResult
    static func addRelation(_ contact: inout Contact, label: String?, name: String) -> Bool {
        guard !name.isEmpty else { return true }
        if contact.contactRelations.contains(where: {
            $0.label.hasSameBytes(as: label) && $0.value.name.hasSameBytes(as: name)
        }) {
            return true
        }
        guard contact.contactRelations.count < StoreLimits.valuesPerProperty else { return false }
        contact.contactRelations.append(LabeledValue(label: label, value: ContactRelation(name: name)))
        return true
    }

    static func pastRelationLimit(_ reference: VCardCard.RelatedUID, cardLine: Int) -> VCardWarning {
        VCardWarning(
            line: reference.line, cardLine: cardLine, key: "RELATED",
            message: "past the store's \(StoreLimits.valuesPerProperty) relations; kept as written")
    }

    /// The stored contacts the cards name, by identity: the card's contact identifier, or a kept UID.
    private func matches(_ cards: [VCardCard], _ identities: [ExactText]) async throws -> [ExactText: Contact] {
        var found: [ExactText: Contact] = [:]
        let byIdentifier = try await store.contacts(withIdentifiers: cards.map(\.contact.identifier), keysToFetch: .all)
        let stored = Dictionary(byIdentifier.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        for (card, identity) in zip(cards, identities) {
            if let contact = stored[card.contact.identifier] { found[identity] = contact }
        }
        guard keptUIDsMayExist else { return found }
        let byUID = try await keptUIDContacts(identities.filter { found[$0] == nil }.map(\.text))
        guard !byUID.isEmpty else { return found }
        let contacts = try await store.contacts(withIdentifiers: Array(Set(byUID.values)), keysToFetch: .all)
        let byID = Dictionary(contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        for (uid, id) in byUID { found[uid] = byID[id] }
        return found
    }

    /// The display names of stored contacts named by these UIDs (as identifier or kept UID) that no card of the
    /// file has named so far.
    func storeNames(_ uids: [String]) async throws -> [ExactText: String] {
        let wanted = ExactText.distinct(uids.filter { nameByUID[$0] == nil })
        guard !wanted.isEmpty else { return [:] }
        let identifiers = try await storeContacts(wanted)
        let keys: ContactKeySet = [
            .contactType, .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .organizationName,
            .nickname,
        ]
        let contacts = try await store.contacts(withIdentifiers: Array(Set(identifiers.values)), keysToFetch: keys)
        let names = Dictionary(contacts.map { ($0.identifier, DisplayName.of($0)) }, uniquingKeysWith: { a, _ in a })
        return identifiers.compactMapValues { names[$0] }
    }

    /// Stored contacts by the bare UIDs references name them by: a contact's identifier, or a UID it keeps,
    /// each with or without `urn:uuid:`.
    func storeContacts(_ uids: [String]) async throws -> [ExactText: String] {
        guard !uids.isEmpty else { return [:] }
        let forms = ExactText.distinct(uids.flatMap(UIDReference.forms))
        var found = try await keptUIDContacts(forms)
        for contact in try await store.contacts(withIdentifiers: forms.filter(Identifiers.isValid), keysToFetch: []) {
            found[ExactText(contact.identifier)] = contact.identifier
        }
        var result: [ExactText: String] = [:]
        for uid in uids {
            if let contact = UIDReference.forms(uid).lazy.compactMap({ found[ExactText($0)] }).first {
                result[ExactText(uid)] = contact
            }
        }
        return result
    }

    /// The contacts that keep these UIDs, by UID, byte for byte (the store answers each UID as it keeps it).
    func keptUIDContacts(_ uids: [String]) async throws -> [ExactText: String] {
        var result: [ExactText: String] = [:]
        for (uid, contact) in try await store.contactIdentifiers(keepingVCardUIDs: ExactText.distinct(uids)) {
            result[ExactText(uid)] = contact
        }
        return result
    }
}
