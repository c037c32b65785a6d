import CarnetStore
import Foundation
import GRDB

extension SaveTransaction {
    /// `survivor` absorbs `absorbed` (``ContactMerge``): its values and memberships grow, they are deleted. Every
    /// check comes before the first write, so a refused merge leaves the transaction as it was.
    mutating func mergeContacts(into survivor: String, absorbing absorbed: [String]) throws {
        guard let kept = try StoredContact.load(db, identifier: survivor) else { throw try missing(survivor) }
        var others: [StoredContact] = []
        for identifier in absorbed {
            guard let other = try StoredContact.load(db, identifier: identifier) else { throw try missing(identifier) }
            others.append(other)
        }
        try ContactMerge.requireOneContainer(
            survivor: (survivor, kept.containerRowid),
            absorbed: others.map { ($0.contact.identifier, $0.containerRowid) })
        let plan = try ContactMerge(into: participant(kept), absorbing: others.map(participant))
        let groups = try Self.groupIdentifiers(db, of: others.map(\.rowid))

        for move in plan.moves {
            try db.cachedStatement(
                sql:
                    "UPDATE labeledValue SET contactRowid = ?, position = ?, createdRevision = ?, revision = ? WHERE id = ?"
            ).execute(arguments: [kept.rowid, move.position, seq, seq, move.identifier])
        }
        try updateContact(plan.update, baseRevision: nil, alsoChanged: plan.changedValueKeys)
        for group in groups {
            try changeMembership(contact: survivor, group: group, add: true)
        }
        for identifier in absorbed {
            try deleteContact(identifier)
        }
    }

    /// Why a merge's contact is not stored: a unified contact's identifier, or none at all.
    private func missing(_ identifier: String) throws -> StoreError {
        try unifiedGroup(identifier) != nil
            ? StoreError.unifiedMerge(identifier)
            : StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
    }

    private func participant(_ stored: StoredContact) throws -> MergeParticipant {
        let image = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT imageData, thumbnailImageData FROM contactImage WHERE contactRowid = ?"),
            arguments: [stored.rowid])
        var values: [MultiValueKind: [StoredLabeledValue]] = [:]
        for kind in MultiValueKind.allCases {
            values[kind] = try stored.labeledValues(db, kind: kind)
        }
        return MergeParticipant(
            contact: stored.contact, imageData: image?[0], thumbnailImageData: image?[1], values: values)
    }

    /// The groups any of the contacts belongs to, each once, in the order they were made.
    private static func groupIdentifiers(_ db: Database, of contactRowids: [Int64]) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT g.id FROM "group" g
                WHERE g.rowid IN (SELECT groupRowid FROM groupMember WHERE contactRowid IN (\(
                    databaseQuestionMarks(count: contactRowids.count))))
                ORDER BY g.rowid
                """, arguments: StatementArguments(contactRowids))
    }
}
