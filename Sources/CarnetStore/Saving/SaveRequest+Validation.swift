extension SaveRequest {
    /// The checks that need no database: shapes, limits and well-formed values.
    package func validateShape() throws {
        if let author = transactionAuthor, !Validation.text(author, limit: StoreLimits.labelBytes) {
            throw StoreError(.validationFailed, "Invalid transaction author", keyPaths: ["transactionAuthor"])
        }
        guard operations.count <= StoreLimits.operationsPerSave else {
            throw StoreError(
                .validationFailed, "A save holds at most \(StoreLimits.operationsPerSave) operations",
                keyPaths: ["operations"])
        }
        for (index, operation) in operations.enumerated() {
            var bad: [String] = []
            var identifiers: [String] = []
            var valueIdentifiers: [String] = []
            switch operation {
            case .addContact(let contact, let container):
                bad = Validation.contact(contact, keys: .all)
                identifiers = [contact.identifier] + (container.map { [$0] } ?? [])
                valueIdentifiers = Validation.givenValueIdentifiers(contact)
            case .updateContact(let contact, _):
                bad = Validation.contact(contact, keys: contact.modifiedKeys, update: true)
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
            case .mergeContacts(let survivor, let absorbed):
                identifiers = [survivor] + absorbed
                bad = Self.mergeProblems(survivor: survivor, absorbed: absorbed)
            case .linkContacts(let linked):
                identifiers = linked
                if linked.count < 2 || linked.count > StoreLimits.contactsPerUnifiedContact {
                    throw StoreError(
                        .linkInvalid, "Linking takes 2 to \(StoreLimits.contactsPerUnifiedContact) contacts",
                        affected: Array(linked.prefix(2)), operationIndex: index)
                }
            case .unlinkContact(let id), .setPreferredLinkedContact(let id, _):
                identifiers = [id]
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
            // As an update refuses identifiers that are not its contact's values: a new contact has none yet, and
            // taking one silently for a fresh value hid a client's mistake (another contact's value, say).
            if !valueIdentifiers.isEmpty {
                throw StoreError(
                    .recordIdentifierInvalid, "A new contact's values have no identifiers yet; leave them out",
                    affected: [identifiers[0]], operationIndex: index, keyPaths: valueIdentifiers)
            }
            if !bad.isEmpty {
                throw StoreError(
                    .validationFailed, "Invalid properties", affected: [identifiers[0]], operationIndex: index,
                    keyPaths: bad.sorted())
            }
        }
    }

    /// What makes a merge impossible before any record is read: nothing to absorb, too much, a contact named twice
    /// or absorbing itself.
    private static func mergeProblems(survivor: String, absorbed: [String]) -> [String] {
        if absorbed.isEmpty || absorbed.count > StoreLimits.contactsPerMerge { return ["from"] }
        if absorbed.contains(survivor) { return ["into"] }
        return Set(absorbed).count == absorbed.count ? [] : ["from"]
    }
}

extension SaveOperation {
    /// Refuses a base revision the store has not reached (`commit` is the revision this save commits as): one read
    /// from another store, or before a backup was restored, would otherwise pass every check against changes made
    /// since, and the save would overwrite them. The client reads the record again, as after any conflict.
    package func checkBaseRevision(before commit: Int64) throws {
        let (identifier, base): (String, Int64?)
        switch self {
        case .updateContact(let contact, let revision): (identifier, base) = (contact.identifier, revision)
        case .updateGroup(let group, let revision): (identifier, base) = (group.identifier, revision)
        default: return
        }
        guard let base, base >= commit else { return }
        throw StoreError(
            .conflict,
            "The base revision \(base) is ahead of this address book (revision \(commit - 1)): read it again",
            affected: [identifier])
    }
}
