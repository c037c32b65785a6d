import CarnetStore
import Foundation
import GRDB

extension SaveTransaction {
    /// Writes the update's modified keys, merging with changes made since `baseRevision` when given.
    /// - Parameter alsoChanged: multi-value keys the caller changed itself (a merge's moved values), recorded with
    ///   the update's.
    mutating func updateContact(_ update: Contact, baseRevision: Int64?, alsoChanged: [ContactKey] = []) throws {
        let id = update.identifier
        guard let stored = try StoredContact.load(db, identifier: id) else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [id])
        }
        try Validation.requireListsWithinLimit(update)
        let keys = update.modifiedKeys
        let settingKeys = keys.filter { !$0.isMultiValue && $0 != .imageDataAvailable }
        let singleValueKeys = try settingKeys.filter { try stored.differs($0, from: update, db: db) }
        var changedKeys = singleValueKeys + alsoChanged
        var conflicts = SingleValueMerge.conflicts(
            setting: settingKeys, baseRevision: baseRevision, createdRevision: stored.createdRevision,
            keyRevisions: try stored.keyRevisions(db, since: baseRevision)
        ).map(\.rawValue)

        var merges: [(MultiValueKind, LabeledValueMerge)] = []
        var invalid: [String] = []
        var overLimit: [String] = []
        for key in keys where key.isMultiValue {
            guard let kind = MultiValueKind(key: key) else { continue }
            let storedValues = try stored.labeledValues(db, kind: kind)
            let merge = try LabeledValueMerge(
                key: key, stored: storedValues,
                given: LabeledValueMerge.identifyingKeptLines(
                    kind, given: update.encodedValues(kind), stored: storedValues),
                baseRevision: baseRevision, retiredRevision: { try stored.retiredValueRevision(db, identifier: $0) },
                contentAtBase: { try StoredContact.valueContent(db, identifier: $0, at: $1) })
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

        var columns: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        var merged = stored.contact
        for key in singleValueKeys {
            if let column = try stored.write(key, from: update, db: db) {
                columns.append(column.name)
                arguments.append(column.value)
            }
            if let slot = key.stringSlot { merged.values.strings[slot] = update.values.strings[slot] }
        }

        if changedKeys.contains(where: { ContactKeySet.names.contains($0) }) {
            // New names move the contact in both orders: its search rows get rowids in their new buckets.
            let sortGiven = ContactIndexing.sortKey(merged, .givenName)
            let sortFamily = ContactIndexing.sortKey(merged, .familyName)
            let names = ContactIndexing.names(merged)
            let oldNames = ContactIndexing.names(stored.contact)
            try NameIndex.delete(db, given: stored.ftsGiven, family: stored.ftsFamily, names: oldNames)
            let ftsGiven = try NameIndex.rowid(sortKey: sortGiven, contactRowid: stored.rowid)
            let ftsFamily = try NameIndex.rowid(sortKey: sortFamily, contactRowid: stored.rowid)
            try NameIndex.insert(db, given: ftsGiven, family: ftsFamily, names: names)
            columns += ["sortGiven", "sortFamily", "ftsGiven", "ftsFamily"]
            // A linked contact's names are its unified contact's too: in its words or in where it stands.
            if let unified = try String.fetchOne(
                db.cachedStatement(sql: "SELECT unifiedId FROM contactLink WHERE contactRowid = ?"),
                arguments: [stored.rowid])
            {
                linkedNamesToRefresh.insert(unified)
            }
            arguments += [sortGiven, sortFamily, ftsGiven, ftsFamily]
        }
        columns += ["revision", "modifiedAt"]
        arguments += [seq, now]
        let assignments = columns.map { "\($0) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE contact SET \(assignments) WHERE rowid = ?",
            arguments: StatementArguments(arguments + [stored.rowid]))
        for (kind, merge) in merges {
            try apply(merge, kind: kind, contactRowid: stored.rowid, contactIdentifier: id)
        }
        for key in changedKeys {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO contactKeyRevision (contactRowid, key, revision) VALUES (?, ?, ?)"
            ).execute(arguments: [stored.rowid, key.rawValue, seq])
        }
        try record(.updateContact, id, keys: changedKeys.sorted())
    }

    private func apply(_ merge: LabeledValueMerge, kind: MultiValueKind, contactRowid: Int64, contactIdentifier: String)
        throws
    {
        for value in merge.removed {
            try db.cachedStatement(sql: "DELETE FROM labeledValue WHERE rowid = ?").execute(arguments: [value.rowid])
            try retire(value.identifier, kind: .labeledValue, owner: contactIdentifier)
        }
        for (position, slot) in merge.slots.enumerated() {
            switch slot {
            case .new(let item):
                try insertValue(item, kind: kind, position: position, contactRowid: contactRowid)
            case .existing(let stored, let item, let contentChanged):
                if contentChanged {
                    // The content before this commit: a second edit in the same commit keeps the first's record,
                    // else a save based on an earlier revision was compared with the in-between content.
                    try db.cachedStatement(
                        sql: """
                            INSERT OR IGNORE INTO labeledValueVersion (valueId, supersededRevision, label, value)
                            VALUES (?, ?, ?, ?)
                            """
                    ).execute(arguments: [stored.identifier, seq, stored.label, stored.value])
                    try db.cachedStatement(
                        sql: """
                            UPDATE labeledValue SET label = ?, value = ?, searchKey = ?, position = ?, revision = ?
                            WHERE rowid = ?
                            """
                    ).execute(arguments: [
                        item.label, item.value, EncodedLabeledValue.searchKey(kind: kind, value: item.value), position,
                        seq, stored.rowid,
                    ])
                } else if stored.position != position {
                    try db.cachedStatement(sql: "UPDATE labeledValue SET position = ? WHERE rowid = ?")
                        .execute(arguments: [position, stored.rowid])
                }
            }
        }
    }
}
