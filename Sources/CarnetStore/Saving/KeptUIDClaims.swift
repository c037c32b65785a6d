/// The kept vCard UIDs (`UID:` lines among ``ContactKey/vCardProperties``) a save writes, checked once its
/// operations have run: a UID names one contact. A contact's card carries the UID it keeps, else its identifier
/// (the export), and an import finds a card's contact by that UID, so a UID two contacts answer to made a
/// re-import of the book's own export write one card over the other contact, and an import into a new book keep
/// one of them (an outside tester's find: a save gave contact `b1` the line `UID:a1`).
package struct KeptUIDClaims: Sendable {
    struct Claim {
        var operationIndex: Int
        /// The line's place among the contact's vCard properties.
        var position: Int
        var uid: String
    }

    private var claims: [Claim] = []

    /// The `UID:` lines the requests' added and updated contacts hold, with their operations' indexes across the
    /// requests.
    package init(_ requests: [SaveRequest]) {
        var index = 0
        for request in requests {
            for operation in request.operations {
                defer { index += 1 }
                let contact: Contact
                switch operation {
                case .addContact(let added, _): contact = added
                case .updateContact(let updated, _): contact = updated
                default: continue
                }
                guard contact.isKeyAvailable(.vCardProperties) else { continue }
                for (position, line) in contact.vCardProperties.enumerated() {
                    guard let uid = KeptVCardLine.uid(in: line.value) else { continue }
                    claims.append(Claim(operationIndex: index, position: position, uid: uid))
                }
            }
        }
    }

    package var isEmpty: Bool { claims.isEmpty }

    /// The UIDs to look up: the contacts that keep each, and the contact each names as its identifier.
    package var uids: [String] {
        var seen: Set<[UInt8]> = []
        return claims.map(\.uid).filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// - Parameters:
    ///   - keepers: the contacts that keep each UID (``uids``) after the save's operations, by UID.
    ///   - contacts: which of ``uids`` are contacts' identifiers after them.
    /// - Throws: ``StoreError`` `validationFailed` at the last operation whose UID more than one contact answers
    ///   to, naming those contacts.
    package func check(keepers: [(uid: String, contact: String)], contacts: [String]) throws {
        // By bytes, as imports match UIDs: two canonically equivalent UIDs are two UIDs.
        var owners: [[UInt8]: Set<String>] = [:]
        for (uid, contact) in keepers { owners[Array(uid.utf8), default: []].insert(contact) }
        for uid in contacts { owners[Array(uid.utf8), default: []].insert(uid) }
        for claim in claims.reversed() {
            guard let named = owners[Array(claim.uid.utf8)], named.count > 1 else { continue }
            throw StoreError(
                .validationFailed,
                "A kept UID line names another contact (its identifier, or a UID it keeps): both cards would carry "
                    + "one UID, and importing them would write one over the other. Nothing was saved.",
                affected: named.sorted(), operationIndex: claim.operationIndex,
                keyPaths: ["vCardProperties[\(claim.position)]"])
        }
    }
}
