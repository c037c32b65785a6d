import CarnetStore
import Foundation
import PostgresNIO

extension PostgresSaveTransaction {
    /// Writes the update's modified keys, merging with changes made since `baseRevision` when given: the same pure
    /// rules as every backend (``SingleValueMerge``, ``LabeledValueMerge``), decided before anything is written.
    /// - Parameter alsoChanged: multi-value keys the caller changed itself (a merge's moved values), recorded with
    ///   the update's.
    mutating func updateContact(_ update: Contact, baseRevision: Int64?, alsoChanged: [ContactKey] = []) async throws {
        let id = update.identifier
        guard let stored = try await PostgresStoredContact.load(self, identifier: id) else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [id])
        }
        // A contact's own lists (an update naming a unified contact is split before it comes here), checked before
        // the merge reads anything for them.
        try Validation.requireListsWithinLimit(update)
        let keys = update.modifiedKeys
        let settingKeys = keys.filter { !$0.isMultiValue && $0 != .imageDataAvailable }
        var singleValueKeys: [ContactKey] = []
        for key in settingKeys where try await stored.differs(key, from: update, self) { singleValueKeys.append(key) }
        var changedKeys = singleValueKeys + alsoChanged
        var conflicts = SingleValueMerge.conflicts(
            setting: settingKeys, baseRevision: baseRevision, createdRevision: stored.createdRevision,
            keyRevisions: try await stored.keyRevisions(self, since: baseRevision)
        ).map(\.rawValue)

        var merges: [(MultiValueKind, LabeledValueMerge)] = []
        var invalid: [String] = []
        var overLimit: [String] = []
        for key in keys where key.isMultiValue {
            guard let kind = MultiValueKind(key: key) else { continue }
            let storedValues = try await stored.labeledValues(self, kind: kind)
            // The merge asks for retirements and earlier contents synchronously: read what it may ask for first.
            let given = LabeledValueMerge.identifyingKeptLines(
                kind, given: update.encodedValues(kind), stored: storedValues)
            let known = Set(storedValues.map(\.identifier))
            var retired: [String: Int64] = [:]
            var contents: [String: EncodedLabeledValue] = [:]
            for item in given {
                guard let identifier = item.identifier else { continue }
                if !known.contains(identifier),
                    let revision = try await stored.retiredValueRevision(self, identifier: identifier)
                {
                    retired[identifier] = revision
                }
                if let base = baseRevision, known.contains(identifier),
                    let content = try await PostgresStoredContact.valueContent(self, identifier: identifier, at: base)
                {
                    contents[identifier] = content
                }
            }
            let merge = LabeledValueMerge(
                key: key, stored: storedValues, given: given, baseRevision: baseRevision,
                retiredRevision: { retired[$0] }, contentAtBase: { identifier, _ in contents[identifier] })
            invalid += merge.invalidIdentifiers.map { "\(key.rawValue)[\($0)].identifier" }
            conflicts += merge.conflicts
            if let key = merge.overLimit { overLimit.append(key) }
            if merge.changesProperty {
                changedKeys.append(key)
                merges.append((kind, merge))
            }
        }
        if let refusal = StoreError.updateRefusal(
            contact: id, invalidIdentifiers: invalid, conflicts: conflicts, overLimit: overLimit,
            baseRevision: baseRevision)
        {
            throw refusal
        }
        guard !changedKeys.isEmpty else { return }

        var assignments: [String] = []
        var bindings = PostgresBindings()
        func set<Value: PostgresThrowingDynamicTypeEncodable>(_ column: String, _ value: Value?) throws {
            try bindings.append(value)
            assignments.append("\(column) = $\(bindings.count)")
        }
        var merged = stored.contact
        let new = update.values
        for key in singleValueKeys {
            switch key {
            case .contactType: try set("contact_type", Int16(new.contactType.rawValue))
            case .birthday: try set("birthday", new.birthday?.storageString)
            case .nonGregorianBirthday: try set("non_gregorian_birthday", new.nonGregorianBirthday?.storageString)
            case .imageData: try set("image_data", new.imageData)
            case .thumbnailImageData: try set("thumbnail_image_data", new.thumbnailImageData)
            default:
                guard let slot = key.stringSlot else { continue }
                try set(BookSchema.column(key), new.strings[slot])
                merged.values.strings[slot] = new.strings[slot]
            }
        }
        if changedKeys.contains(where: { ContactKeySet.names.contains($0) }) {
            try set("sort_given", ContactIndexing.sortKey(merged, .givenName))
            try set("sort_family", ContactIndexing.sortKey(merged, .familyName))
            // The prefix rows carry the sort keys, so they are written again even when the words are the same.
            try await removeNameIndex([id])
            try await insertNameIndex(id, NameIndexEntry(merged))
            // A linked contact's names are its unified contact's too: in its words or in where it stands.
            renamedContacts.insert(id)
        }
        try set("revision", seq)
        try set("modified_at", now)
        bindings.append(bookID)
        bindings.append(id)
        try await run(
            PostgresQuery(
                unsafeSQL: """
                    UPDATE contact SET \(assignments.joined(separator: ", "))
                    WHERE book_id = $\(bindings.count - 1) AND id = $\(bindings.count)
                    """, binds: bindings))
        for (kind, merge) in merges {
            try await apply(merge, kind: kind, contact: id)
        }
        // A key both set and moved by a merge is one row.
        try await writeKeyRevisions(Set(changedKeys).map { (id, $0) })
        try await record(.updateContact, id, keys: changedKeys.sorted())
    }

    /// Records that this commit changed each contact's key, in one statement: a later update with an older base
    /// revision conflicts on them. Each (contact, key) pair once.
    func writeKeyRevisions(_ changes: [(contact: String, key: ContactKey)]) async throws {
        try await run(
            """
            INSERT INTO contact_key_revision (book_id, contact_id, key, revision)
            SELECT \(bookID), contact_id, key, \(seq)
            FROM unnest(\(changes.map(\.contact))::text[], \(changes.map(\.key.rawValue))::text[]) AS u(contact_id, key)
            ON CONFLICT (book_id, contact_id, key) DO UPDATE SET revision = excluded.revision
            """)
    }

    private func apply(_ merge: LabeledValueMerge, kind: MultiValueKind, contact: String) async throws {
        for value in merge.removed {
            try await run("DELETE FROM labeled_value WHERE book_id = \(bookID) AND id = \(value.identifier)")
            try await retire([value.identifier], kind: .labeledValue, owner: contact)
        }
        var added: [(kind: MultiValueKind, position: Int, item: EncodedLabeledValue)] = []
        for (position, slot) in merge.slots.enumerated() {
            switch slot {
            case .new(let item):
                added.append((kind, position, item))
            case .existing(let stored, let item, let contentChanged):
                if contentChanged {
                    // The content before this commit (the first edit's record, as on SQLite).
                    try await run(
                        """
                        INSERT INTO labeled_value_version (book_id, value_id, superseded_revision, label, value)
                        VALUES (\(bookID), \(stored.identifier), \(seq), \(stored.label), \(stored.value))
                        ON CONFLICT (book_id, value_id, superseded_revision) DO NOTHING
                        """)
                    let searchKey = EncodedLabeledValue.searchKey(kind: kind, value: item.value)
                    try await run(
                        """
                        UPDATE labeled_value SET label = \(item.label), value = \(item.value), search_key = \(searchKey),
                            position = \(Int32(position)), revision = \(seq)
                        WHERE book_id = \(bookID) AND id = \(stored.identifier)
                        """)
                } else if stored.position != position {
                    try await run(
                        """
                        UPDATE labeled_value SET position = \(Int32(position))
                        WHERE book_id = \(bookID) AND id = \(stored.identifier)
                        """)
                }
            }
        }
        try await insertValues(added, contact: contact)
    }
}
