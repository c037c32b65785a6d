/// How an update through a unified contact's identifier is written to its members, the same on every backend.
///
/// The rules (the schema documents them):
/// - A name key goes to the member preferred for name; the image to the member whose image shows (else the one
///   preferred for image), and removing it removes every member's.
/// - Another single value goes to the member whose value shows, or to the name-preferred member when none has
///   one; clearing it clears it on every member that has it, so nothing else shows through.
/// - A multi-value's list is split by the members holding its values' identifiers, in the order given; a value
///   without an identifier is new and goes to the name-preferred member. A member's value that the unified contact
///   left out as a duplicate stays while the value it duplicates stays, takes its new value when that one is
///   edited, and goes with it. An identifier no member holds is refused with
///   ``StoreError/Code/recordIdentifierInvalid``.
package enum UnifiedUpdate {
    /// The refusal of an update through a unified contact based on a revision before a link, an unlink or a change
    /// of its preferred contacts: what the unified contact showed then (its values come from its members, in their
    /// preference order) may not be what it shows now, and the update would write over values its client never saw.
    /// Edits to the members are checked key by key, as for any contact; a link change is checked whole, since the
    /// backends keep no revision per key of a unified contact. Before, such an update went through (an outside
    /// tester's find: a linked member's job title overwritten, an email the link brought in deleted). A revision
    /// whose history since was compacted away in part is refused the same way: a link change there is not known
    /// any more (a client holding a revision older than the retention period reads the contact again).
    package static func linkChangedConflict(_ group: LinkGroup, _ update: Contact, baseRevision: Int64) -> StoreError {
        StoreError(
            .conflict,
            "The unified contact's members or preferred contacts changed since revision \(baseRevision) (or its history "
                + "since was compacted); read it again.",
            affected: [group.identifier], keyPaths: update.modifiedKeys.map(\.rawValue))
    }

    /// One update per member that changes, each with only the keys it changes.
    package static func route(_ update: Contact, through group: LinkGroup, members: [String: Contact]) throws
        -> [Contact]
    {
        let ordered = group.valueOrder.compactMap { members[$0] }
        var updates: [String: Contact] = [:]
        func edit(_ member: String, _ body: (inout Contact) -> Void) {
            var contact = updates[member] ?? Contact(updating: member)
            body(&contact)
            updates[member] = contact
        }
        let named = group.preferredForName
        for key in ContactKey.stringKeys where update.modifiedKeys.contains(key) {
            let value = update.storedString(key)
            if UnifiedContact.nameKeys.contains(key) {
                edit(named) { $0.setString(key, value) }
            } else if value.isEmpty {
                for member in ordered where !member.storedString(key).isEmpty {
                    edit(member.identifier) { $0.setString(key, "") }
                }
            } else {
                let holder = ordered.first { !$0.storedString(key).isEmpty }?.identifier ?? named
                edit(holder) { $0.setString(key, value) }
            }
        }
        if update.modifiedKeys.contains(.contactType) { edit(named) { $0.contactType = update.values.contactType } }
        for key in [ContactKey.birthday, .nonGregorianBirthday] where update.modifiedKeys.contains(key) {
            let date = key == .birthday ? update.values.birthday : update.values.nonGregorianBirthday
            let holders = ordered.filter {
                (key == .birthday ? $0.values.birthday : $0.values.nonGregorianBirthday) != nil
            }
            let targets = date == nil ? holders.map(\.identifier) : [holders.first?.identifier ?? named]
            for target in targets {
                edit(target) {
                    if key == .birthday { $0.birthday = date } else { $0.nonGregorianBirthday = date }
                }
            }
        }
        if update.modifiedKeys.contains(.imageData) || update.modifiedKeys.contains(.thumbnailImageData) {
            let holder = UnifiedContact.imageSource(group, ordered, members)?.identifier ?? group.preferredForImage
            // Removing the image removes it from every member that has one: else the next one would show.
            let removed = update.modifiedKeys.contains(.imageData) && update.values.imageData == nil
            let holders = ordered.filter(\.values.imageDataAvailable).map(\.identifier)
            for target in removed && !holders.isEmpty ? holders : [holder] {
                edit(target) {
                    if update.modifiedKeys.contains(.imageData) { $0.imageData = update.values.imageData }
                    if update.modifiedKeys.contains(.thumbnailImageData) {
                        $0.thumbnailImageData = update.values.thumbnailImageData
                    }
                }
            }
        }
        for kind in MultiValueKind.allCases where update.modifiedKeys.contains(kind.key) {
            for (member, list) in try split(kind, update.encodedValues(kind), ordered, named: named) {
                edit(member) {
                    $0.setEncodedValues(kind, list)
                    $0.didSet(kind.key)
                }
            }
        }
        return group.valueOrder.compactMap { updates[$0] }
    }

    /// Each member's new list of one kind, for the members whose list changes.
    private static func split(
        _ kind: MultiValueKind, _ given: [EncodedLabeledValue], _ ordered: [Contact], named: String
    ) throws -> [String: [EncodedLabeledValue]] {
        var holder: [String: String] = [:]
        var current: [String: [EncodedLabeledValue]] = [:]
        for member in ordered {
            let values = member.encodedValues(kind)
            current[member.identifier] = values
            for value in values { if let id = value.identifier { holder[id] = member.identifier } }
        }
        let unknown = given.compactMap(\.identifier).filter { holder[$0] == nil }
        if !unknown.isEmpty {
            throw StoreError(
                .recordIdentifierInvalid, "Labeled value identifiers that no linked contact holds",
                affected: unknown, keyPaths: [kind.key.rawValue])
        }
        var lists: [String: [EncodedLabeledValue]] = [:]
        for value in given { lists[value.identifier.flatMap { holder[$0] } ?? named, default: []].append(value) }
        // Each member's share within a contact's limit, before the placing below, whose cost grows with it.
        let over = lists.filter { $0.value.count > Validation.valueLimit(kind) }.keys.sorted()
        if !over.isEmpty {
            throw StoreError(
                .validationFailed, "A linked contact would hold more values than a contact may", affected: over,
                keyPaths: [kind.key.rawValue])
        }
        // A hidden duplicate follows the value it duplicates: kept while that one is kept, edited with it, gone with
        // it. Kept as it was when an edit left that one's value the same, else given its new value (and, for the
        // kinds whose label is part of the value, its label): kept unchanged, the edited-away value showed again
        // beside the new one (an outside tester's find).
        let shown = UnifiedContact.union(kind, ordered)
        let shownIds = Set(shown.compactMap(\.value.identifier))
        var givenByID: [String: EncodedLabeledValue] = [:]
        for value in given { if let id = value.identifier { givenByID[id] = value } }
        var following: [String: EncodedLabeledValue] = [:]
        for entry in shown {
            guard let id = entry.value.identifier, let now = givenByID[id] else { continue }
            following[ContactMerge.duplicateKey(kind: kind, label: entry.value.label, value: entry.value.value)] = now
        }
        let labelled = kind == .dates || kind == .contactRelations
        var result: [String: [EncodedLabeledValue]] = [:]
        for member in ordered {
            var list = lists[member.identifier] ?? []
            // A kept hidden value goes back where it stood, after the shown value it followed (when that one
            // stays), so that a member whose values the update leaves alone is not written at all.
            var at = 0
            for value in current[member.identifier] ?? [] {
                if let id = value.identifier, shownIds.contains(id) {
                    if let index = list.firstIndex(where: { $0.identifier == id }) { at = index + 1 }
                } else {
                    let key = ContactMerge.duplicateKey(kind: kind, label: value.label, value: value.value)
                    guard let now = following[key] else { continue }
                    var kept = value
                    if ContactMerge.duplicateKey(kind: kind, label: now.label, value: now.value) != key {
                        kept.value = now.value
                        if labelled { kept.label = now.label }
                    }
                    list.insert(kept, at: at)
                    at += 1
                }
            }
            // By bytes: a list that only respells a value (NFC, NFD) is a change, stored.
            let before = current[member.identifier] ?? []
            let same =
                list.count == before.count
                && zip(list, before).allSatisfy {
                    $0.identifier == $1.identifier && $0.label.hasSameBytes(as: $1.label)
                        && $0.value.hasSameBytes(as: $1.value)
                }
            if !same { result[member.identifier] = list }
        }
        return result
    }
}
