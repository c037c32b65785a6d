import CarnetStore
import Foundation
import GRDB

/// A contact's stored single values and revisions, loaded inside a save to compare an update against.
struct StoredContact {
    let rowid: Int64
    let containerRowid: Int64
    let createdRevision: Int64
    let revision: Int64
    let ftsGiven: Int64
    let ftsFamily: Int64
    var contact: Contact

    static let singleValueKeys: ContactKeySet = ContactKeySet(
        ContactKey.stringKeys + [
            .contactType, .birthday, .nonGregorianBirthday,
        ])

    static func load(_ db: Database, identifier: String) throws -> StoredContact? {
        let strings = ContactKey.stringKeys.map(\.rawValue).joined(separator: ", ")
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, containerRowid, createdRevision, revision, contactType, birthday,
                               nonGregorianBirthday, ftsGiven, ftsFamily, \(strings)
                        FROM contact WHERE id = ?
                        """), arguments: [identifier])
        else { return nil }
        var contact = Contact(fetched: identifier, keys: singleValueKeys)
        contact.values.contactType = ContactType(rawValue: row[4]) ?? .person
        contact.values.birthday = (row[5] as String?).flatMap(ContactDate.init(storageString:))
        contact.values.nonGregorianBirthday = (row[6] as String?).flatMap(ContactDate.init(storageString:))
        for slot in ContactKey.stringKeys.indices { contact.values.strings[slot] = row[9 + slot] }
        return StoredContact(
            rowid: row[0], containerRowid: row[1], createdRevision: row[2], revision: row[3],
            ftsGiven: row[7], ftsFamily: row[8], contact: contact)
    }

    /// The revisions at which keys changed after the contact was added; only needed when the contact changed
    /// since the base revision.
    func keyRevisions(_ db: Database, since base: Int64?) throws -> [ContactKey: Int64] {
        guard let base, revision > base else { return [:] }
        var result: [ContactKey: Int64] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT key, revision FROM contactKeyRevision WHERE contactRowid = ?"),
            arguments: [rowid])
        while let row = try rows.next() {
            if let key = ContactKey(rawValue: row[0]) { result[key] = row[1] }
        }
        return result
    }

    func labeledValues(_ db: Database, kind: MultiValueKind) throws -> [StoredLabeledValue] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT rowid, id, label, value, position, createdRevision, revision FROM labeledValue
                    WHERE contactRowid = ? AND kind = ? ORDER BY position
                    """), arguments: [rowid, kind.rawValue]
        ).map {
            StoredLabeledValue(
                rowid: $0[0], identifier: $0[1], label: $0[2], value: $0[3], position: $0[4],
                createdRevision: $0[5], revision: $0[6])
        }
    }

    /// The label and value a labeled value had at `revision`: the content the first change after it replaced.
    static func valueContent(_ db: Database, identifier: String, at revision: Int64) throws -> EncodedLabeledValue? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT label, value FROM labeledValueVersion WHERE valueId = ? AND supersededRevision > ?
                    ORDER BY supersededRevision LIMIT 1
                    """), arguments: [identifier, revision]
        ).map { EncodedLabeledValue(identifier: identifier, label: $0[0], value: $0[1]) }
    }

    func retiredValueRevision(_ db: Database, identifier: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT revision FROM retiredIdentifier WHERE id = ? AND kind = ? AND ownerId = ?"),
            arguments: [identifier, RetiredKind.labeledValue.rawValue, contact.identifier])
    }

    /// Whether the update sets a single-value key to another value than the stored one.
    func differs(_ key: ContactKey, from update: Contact, db: Database) throws -> Bool {
        if let differs = contact.singleValueDiffers(key, from: update) { return differs }
        let new = update.values
        switch key {
        case .imageData, .thumbnailImageData:
            let current = try Data.fetchOne(
                db, sql: "SELECT \(key.rawValue) FROM contactImage WHERE contactRowid = ?", arguments: [rowid])
            return current != (key == .imageData ? new.imageData : new.thumbnailImageData)
        default:
            return false
        }
    }

    /// Writes a changed single-value key: returns the contact column to set and its new value, or `nil` when the
    /// value lives elsewhere (images, which this writes itself).
    func write(_ key: ContactKey, from update: Contact, db: Database) throws
        -> (name: String, value: (any DatabaseValueConvertible)?)?
    {
        let new = update.values
        switch key {
        case _ where key.stringSlot != nil:
            guard let slot = key.stringSlot else { return nil }
            return (key.rawValue, new.strings[slot])
        case .contactType: return (key.rawValue, new.contactType.rawValue)
        case .birthday: return (key.rawValue, new.birthday?.storageString)
        case .nonGregorianBirthday: return (key.rawValue, new.nonGregorianBirthday?.storageString)
        case .imageData, .thumbnailImageData:
            let column = key.rawValue
            let value = key == .imageData ? new.imageData : new.thumbnailImageData
            try db.execute(
                sql: """
                    INSERT INTO contactImage (contactRowid, \(column)) VALUES (?, ?)
                    ON CONFLICT (contactRowid) DO UPDATE SET \(column) = excluded.\(column)
                    """, arguments: [rowid, value])
            return key == .imageData ? ("hasImage", value != nil) : nil
        default:
            return nil
        }
    }
}
