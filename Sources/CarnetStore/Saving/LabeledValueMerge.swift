/// A labeled value as stored, with the revisions a merge needs.
package struct StoredLabeledValue: Sendable {
    package var rowid: Int64
    package var identifier: String
    package var label: String?
    package var value: String
    package var position: Int
    package var createdRevision: Int64
    package var revision: Int64

    package init(
        rowid: Int64, identifier: String, label: String?, value: String, position: Int, createdRevision: Int64,
        revision: Int64
    ) {
        self.rowid = rowid
        self.identifier = identifier
        self.label = label
        self.value = value
        self.position = position
        self.createdRevision = createdRevision
        self.revision = revision
    }

    package var encoded: EncodedLabeledValue { EncodedLabeledValue(identifier: identifier, label: label, value: value) }
}

/// How an update's list of labeled values applies to the stored list.
///
/// Without a base revision the given list replaces the stored one (last writer wins): values carrying a stored
/// identifier keep it, the rest are new, stored values left out are removed.
///
/// With a base revision the unit of conflict is the value's identifier:
/// - a value the update changes conflicts if it changed since the base, or was deleted since; a value sent back
///   as it was at the base (the client did not touch it) keeps its current content; a value the update sets to
///   what another save changed it to since the base conflicts too (both edited it: one edit would be lost);
/// - a value the update leaves out is removed, unless it changed since the base (conflict) or was added since
///   (the client never saw it, so it stays, after the given values).
package struct LabeledValueMerge {
    package enum Slot {
        case existing(StoredLabeledValue, EncodedLabeledValue, contentChanged: Bool)
        case new(EncodedLabeledValue)
    }

    package var slots: [Slot] = []
    package var removed: [StoredLabeledValue] = []
    package var conflicts: [String] = []
    package var invalidIdentifiers: [Int] = []
    /// The key, when the merged list holds more values than a contact may (``Validation/valueLimit(_:)``): values
    /// added since the base revision stay after the given ones, so a list within the limit could pass it.
    package var overLimit: String?

    /// Whether the property's value (content or order) changes.
    package var changesProperty: Bool {
        if !removed.isEmpty { return true }
        for (position, slot) in slots.enumerated() {
            switch slot {
            case .new: return true
            case .existing(let stored, _, let changed): if changed || stored.position != position { return true }
            }
        }
        return false
    }

    /// - Parameters:
    ///   - retiredRevision: for an identifier that is not stored, the revision at which this contact's value
    ///     with that identifier was deleted, or `nil` if it never was one of its values.
    ///   - contentAtBase: the label and value a stored value had at the base revision, if known.
    package init(
        key: ContactKey, stored: [StoredLabeledValue], given: [EncodedLabeledValue], baseRevision: Int64?,
        retiredRevision: (String) throws -> Int64?,
        contentAtBase: (String, Int64) throws -> EncodedLabeledValue? = { _, _ in nil }
    ) rethrows {
        var byIdentifier = Dictionary(stored.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>()
        for (index, item) in given.enumerated() {
            guard let id = item.identifier else {
                slots.append(.new(item))
                continue
            }
            guard seen.insert(id).inserted else {
                invalidIdentifiers.append(index)
                continue
            }
            if let current = byIdentifier.removeValue(forKey: id) {
                let changed = !current.label.hasSameBytes(as: item.label) || !current.value.hasSameBytes(as: item.value)
                if let base = baseRevision, current.revision > base {
                    let atBase = try contentAtBase(id, base)
                    if let atBase, atBase.label.hasSameBytes(as: item.label), atBase.value.hasSameBytes(as: item.value)
                    {
                        slots.append(.existing(current, current.encoded, contentChanged: false))
                        continue
                    }
                    // Changed here, or changed since the base (its content then was another) to this very value.
                    if changed || atBase != nil { conflicts.append("\(key.rawValue).\(id)") }
                }
                slots.append(.existing(current, item, contentChanged: changed))
            } else if let retired = try retiredRevision(id) {
                if let base = baseRevision, retired > base {
                    conflicts.append("\(key.rawValue).\(id)")
                } else if baseRevision != nil {
                    invalidIdentifiers.append(index)
                } else {
                    // Last writer wins: the value comes back, as a new value.
                    slots.append(.new(EncodedLabeledValue(identifier: nil, label: item.label, value: item.value)))
                }
            } else {
                invalidIdentifiers.append(index)
            }
        }
        for current in stored where byIdentifier[current.identifier] != nil {
            guard let base = baseRevision else {
                removed.append(current)
                continue
            }
            if current.createdRevision > base {
                slots.append(.existing(current, current.encoded, contentChanged: false))
            } else if current.revision > base {
                conflicts.append("\(key.rawValue).\(current.identifier)")
            } else {
                removed.append(current)
            }
        }
        if let kind = MultiValueKind(key: key), slots.count > Validation.valueLimit(kind) { overLimit = key.rawValue }
    }
}

extension StoreError {
    /// Why an update's merge refuses it, on every backend: value identifiers that are not the contact's first, then
    /// conflicts with changes since the base revision; `nil` when it may be written.
    package static func updateRefusal(
        contact id: String, invalidIdentifiers: [String], conflicts: [String], overLimit: [String] = [],
        baseRevision: Int64?
    ) -> StoreError? {
        if !invalidIdentifiers.isEmpty {
            return StoreError(
                .recordIdentifierInvalid, "Labeled value identifiers that are not values of this contact",
                affected: [id], keyPaths: invalidIdentifiers)
        }
        if !conflicts.isEmpty {
            return StoreError(
                .conflict, "The contact changed since revision \(baseRevision ?? 0) in the keys this update touches",
                affected: [id], keyPaths: conflicts)
        }
        if !overLimit.isEmpty {
            let since = baseRevision.map { " with the values added since revision \($0)" } ?? ""
            return StoreError(
                .validationFailed, "The contact would hold more values than it may\(since)", affected: [id],
                keyPaths: overLimit)
        }
        return nil
    }
}
