import CarnetStore
import Foundation
import PostgresNIO

extension PostgresSaveTransaction {
    /// `survivor` absorbs `absorbed` (``ContactMerge``): its values and memberships grow, they are deleted. Every
    /// check comes before the first write; the rows read are locked (`FOR UPDATE`) until the commit.
    mutating func mergeContacts(into survivor: String, absorbing absorbed: [String]) async throws {
        guard let kept = try await PostgresStoredContact.load(self, identifier: survivor) else {
            throw try await missing(survivor)
        }
        var others: [PostgresStoredContact] = []
        for identifier in absorbed {
            guard let other = try await PostgresStoredContact.load(self, identifier: identifier) else {
                throw try await missing(identifier)
            }
            others.append(other)
        }
        try ContactMerge.requireOneContainer(
            survivor: (survivor, kept.containerID), absorbed: others.map { ($0.contact.identifier, $0.containerID) })
        var participants: [MergeParticipant] = []
        for other in others { participants.append(try await participant(other)) }
        let plan = try ContactMerge(into: try await participant(kept), absorbing: participants)
        let groups = try await run(
            """
            SELECT g.id FROM contact_group g
            WHERE g.book_id = \(bookID) AND g.id IN (
                SELECT group_id FROM group_member WHERE book_id = \(bookID) AND contact_id = ANY(\(absorbed)))
            ORDER BY g.created_order
            """
        ).decode(String.self).array()

        for move in plan.moves {
            try await run(
                """
                UPDATE labeled_value SET contact_id = \(survivor), position = \(Int32(move.position)),
                    created_revision = \(seq), revision = \(seq)
                WHERE book_id = \(bookID) AND id = \(move.identifier)
                """)
        }
        try await updateContact(plan.update, baseRevision: nil, alsoChanged: plan.changedValueKeys)
        for group in groups {
            try await changeMembership(contact: survivor, group: group, add: true)
        }
        for identifier in absorbed {
            try await deleteContact(identifier)
        }
    }

    /// Why a merge's contact is not stored: a unified contact's identifier, or none at all.
    private func missing(_ identifier: String) async throws -> StoreError {
        try await unifiedGroup(identifier) != nil
            ? StoreError.unifiedMerge(identifier)
            : StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
    }

    private func participant(_ stored: PostgresStoredContact) async throws -> MergeParticipant {
        let image = try await run(
            PostgresQuery(
                unsafeSQL: "SELECT image_data, thumbnail_image_data FROM contact WHERE book_id = $1 AND id = $2",
                binds: PostgresStoredContact.binds(bookID, stored.contact.identifier))
        ).decode((Data?, Data?).self).array().first
        var values: [MultiValueKind: [StoredLabeledValue]] = [:]
        for kind in MultiValueKind.allCases {
            values[kind] = try await stored.labeledValues(self, kind: kind)
        }
        return MergeParticipant(
            contact: stored.contact, imageData: image?.0 ?? nil, thumbnailImageData: image?.1 ?? nil, values: values)
    }
}
