import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// The save floor: the rows a save of new contacts must write (transaction, contact, the two name-ordered FTS
/// rows, labeled values with search keys, history event), inserted by hand in one transaction.
enum RawSave {
    struct Container: Sendable {
        var rowid: Int64
        var id: String
    }

    static func defaultContainer(_ db: Database) throws -> Container {
        let row = try Row.fetchOne(db, sql: "SELECT rowid, id FROM container WHERE isDefault")!
        return Container(rowid: row[0], id: row[1])
    }

    /// What the hand-written save writes; the defaults write what the store writes.
    struct Options: Sendable {
        var valueIdentifier: @Sendable () -> String = { Contact.makeIdentifier() }
        var nameTables = ["contactNameGiven", "contactNameFamily"]
    }

    /// Saves people who all have an identifier.
    static func save(_ db: Database, _ people: [Person], container: Container, options: Options = Options()) throws {
        let now = Date().timeIntervalSince1970
        try db.cachedStatement(sql: "INSERT INTO saveTransaction (author, timestamp) VALUES (?, ?)")
            .execute(arguments: ["carnet-bench-raw", now])
        let seq = db.lastInsertedRowID
        for person in people {
            let identifier = person.identifier!
            let sortGiven = sortKey(person, givenFirst: true)
            let sortFamily = sortKey(person, givenFirst: false)
            // The name index's rowid is the sort key's bucket plus the contact's rowid: take the next rowid now.
            let rowid = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM contact")) ?? 0) + 1
            let ftsGiven = try NameIndex.rowid(sortKey: sortGiven, contactRowid: rowid)
            let ftsFamily = try NameIndex.rowid(sortKey: sortFamily, contactRowid: rowid)
            try db.cachedStatement(
                sql: """
                    INSERT INTO contact (rowid, id, containerRowid, contactType, givenName, middleName, familyName, nickname,
                        organizationName, jobTitle, birthday, sortGiven, sortFamily, ftsGiven, ftsFamily,
                        createdRevision, revision, createdAt, modifiedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                rowid, identifier, container.rowid, person.isOrganization ? 1 : 0, person.givenName,
                person.middleName, person.familyName, person.nickname, person.organizationName, person.jobTitle,
                person.birthday.map { "gregorian||\($0.year.map(String.init) ?? "")|\($0.month)|\($0.day)|0" },
                sortGiven, sortFamily, ftsGiven, ftsFamily, seq, seq, now, now,
            ])
            let names = NameIndex.indexedText(
                TextFolding.fold(
                    [
                        person.givenName, person.middleName, person.familyName, person.nickname,
                        person.organizationName,
                    ].filter { !$0.isEmpty }.joined(separator: " ")))
            for (table, ftsRowid) in [("contactNameGiven", ftsGiven), ("contactNameFamily", ftsFamily)]
            where options.nameTables.contains(table) {
                try db.cachedStatement(sql: "INSERT INTO \(table) (rowid, names) VALUES (?, ?)")
                    .execute(arguments: [ftsRowid, names])
            }
            let phones = person.phones.map { ($0.label, $0.value, TextFolding.phoneKey($0.value)) }
            let emails = person.emails.map { ($0.label, $0.value, TextFolding.emailKey($0.value)) }
            let addresses = person.addresses.map { item in
                let a = item.value
                let fields = [
                    a.street, a.subLocality, a.city, a.subAdministrativeArea, a.state, a.postalCode,
                    a.country, a.isoCountryCode,
                ]
                return (item.label, fields.joined(separator: "\u{1F}"), String?.none)
            }
            for (kind, values) in [(1, phones), (2, emails), (3, addresses)] {
                for (position, (label, value, searchKey)) in values.enumerated() {
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO labeledValue (id, contactRowid, kind, position, label, value, searchKey,
                                createdRevision, revision)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """
                    ).execute(arguments: [
                        options.valueIdentifier(), rowid, kind, position, label, value, searchKey, seq, seq,
                    ])
                }
            }
            try db.cachedStatement(sql: "INSERT INTO changeEvent (seq, kind, recordId, otherId) VALUES (?, 1, ?, ?)")
                .execute(arguments: [seq, identifier, container.id])
        }
    }

    static func sortKey(_ person: Person, givenFirst: Bool) -> String {
        TextFolding.sortKey(
            primary: givenFirst ? person.givenName : person.familyName,
            secondary: givenFirst ? person.familyName : person.givenName,
            middle: person.middleName, organization: person.organizationName)
    }
}
