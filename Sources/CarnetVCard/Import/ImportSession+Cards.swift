import CarnetStore

/// What an import notes of each card: as it is read (what other cards may refer to) and once it is saved (what
/// the links, counts and group departures at the end need).
extension ImportSession {
    /// Notes what other cards may refer to: a contact card's name by UID, a group card.
    mutating func learn(_ card: VCardCard) {
        switch card.kind {
        case .contact:
            if let uid = card.uid {
                nameByUID.insert(DisplayName.of(card.contact), uid: uid)
                // As written: cards match contacts by the UID as written (`urn:uuid:x` and `x` are two contacts).
                if let first = cardLineByUID[ExactText(uid)] {
                    summary.warnings.append(Self.repeatedUID(card, first: first, replaced: "values"))
                } else {
                    cardLineByUID[ExactText(uid)] = card.line
                }
            } else {
                // An outside tester's find: two cards without a UID that differ only in what their derived
                // identifier leaves out became one contact with no word.
                let identifier = ExactText(VCardImporter.prepared(card).contact.identifier)
                if let first = cardLineByDerivedIdentifier[identifier] {
                    summary.warnings.append(Self.sameDerivedIdentifier(card, first: first))
                } else {
                    cardLineByDerivedIdentifier[identifier] = card.line
                }
            }
        case .group:
            // CATEGORIES read after it that give its name find its group (created under its UID when free).
            if let first = groupCardNames.learn(card) {
                summary.warnings.append(Self.repeatedUID(card, first: first, replaced: "name and members"))
            }
            groupCards.append(card)
        }
        summary.warnings += card.warnings
    }

    /// The warning at a card without a UID that reads as the card at line `first`, which it updates.
    static func sameDerivedIdentifier(_ card: VCardCard, first: Int) -> VCardWarning {
        VCardWarning(
            line: card.line, cardLine: card.line, key: "UID",
            message: "has no UID and reads as the card at line \(first) (a card without a UID is known by its values, "
                + "its photo by its size and its CATEGORIES not at all): this card's values replace that card's")
    }

    /// The warning at a card that repeats the UID of the card (of its kind) at line `first`.
    static func repeatedUID(_ card: VCardCard, first: Int, replaced: String) -> VCardWarning {
        let earlier = card.kind == .group ? "group card" : "card"
        return VCardWarning(
            line: card.line, cardLine: card.line, key: "UID",
            message: "repeats the UID of the \(earlier) at line \(first): this card's \(replaced) replace that card's")
    }

    /// Notes a planned card as saved (or, when strict, as part of the one commit to come).
    mutating func record(_ card: PlannedCard) {
        if card.outcome == .added,
            card.card.contact.vCardProperties.contains(where: { KeptVCardLine.uid(in: $0.value) != nil })
        {
            keptUIDsMayExist = true
        }
        // Only a card with a UID can be named by a group card or RELATED.
        if let uid = card.card.uid {
            contactByUID.insert(card.contactIdentifier, uid: card.identity)
            if let first = cardLineByUID[ExactText(uid)], first != card.card.line {
                replacedAt[card.contactIdentifier] = card.card.line
            }
        }
        // Said once every card is in, if still so: a group card read later may give the name.
        if !card.card.categories.isEmpty {
            let ambiguous = card.card.categories.filter { isAmbiguousInContainer(ExactText($0)) }
            ambiguousCategories[card.contactIdentifier] =
                ambiguous.isEmpty ? nil : (names: ambiguous, cardLine: card.card.line)
        }
        for reference in card.deferred {
            deferredRelations.append((card.contactIdentifier, reference, card.card.line))
        }
        for (reference, name) in card.resolved {
            resolvedRelations.append((card.contactIdentifier, reference, name, card.card.line))
        }
        summary.warnings += card.warnings
        if importer.linkDuplicates, card.outcome != .unchanged {
            importedContacts.append(Membership(contact: card.contactIdentifier, cardLine: card.card.line))
        }
        switch card.outcome {
        case .added: pendingCounts.added += 1
        case .updated: pendingCounts.updated += 1
        case .unchanged: pendingCounts.unchanged += 1
        }
        if card.outcome != .added {
            let index = regroupedIndex[card.contactIdentifier] ?? regrouped.count
            if index == regrouped.count {
                regroupedIndex[card.contactIdentifier] = index
                regrouped.append(Regrouped(contact: card.contactIdentifier, cardLine: card.card.line))
            }
            regrouped[index].cardLine = card.card.line
            // An empty CATEGORIES line says "in no such group" (an outside tester's find: it was read as no line).
            regrouped[index].lastWithoutCategories = !card.card.hasCategories
            if card.card.hasCategories { regrouped[index].categories = card.card.categories }
        }
    }
}
