import CarnetStore

extension VCardReader {
    /// Why a line a client asks a contact to keep (``ContactKey/vCardProperties``) would not read back from the
    /// contact's export, or nil. The store checks a line's shape (``KeptVCardLine``); this is what only the reader
    /// knows: a value it cannot decode (a PHOTO that is no base64, broken quoted-printable) makes it skip the whole
    /// card, and a KIND of group turns the card into a group's, so the contact was lost on re-import (an outside
    /// tester's find). The line is read alone, as its property's first line in both versions the export writes:
    /// the strictest place it can stand, since an export writes the contact's own properties before kept lines.
    public static func keptLineProblem(_ line: String) -> String? {
        for version in ["3.0", "4.0"] {
            let card = "BEGIN:VCARD\r\nVERSION:\(version)\r\n\(line)\r\nEND:VCARD\r\n"
            do {
                let read = try VCardReader().read(card)
                if let issue = read.issues.first { return issue.message }
                guard read.cards.count == 1 else { return "it does not read back as one card" }
                if read.cards[0].kind == .group { return "it makes the card a group's" }
            } catch {
                return error.message
            }
        }
        return nil
    }
}

extension SaveRequest {
    /// Refuses a save whose contacts would keep a vCard line their export could not read back
    /// (``VCardReader/keptLineProblem(_:)``): the store's validation error, with the operation and key paths,
    /// before anything is written.
    public func checkKeptVCardLines() throws(StoreError) {
        for (index, operation) in operations.enumerated() {
            let contact: Contact
            switch operation {
            case .addContact(let added, _): contact = added
            case .updateContact(let update, _) where update.modifiedKeys.contains(.vCardProperties): contact = update
            default: continue
            }
            guard contact.isKeyAvailable(.vCardProperties) else { continue }
            let lines = contact.vCardProperties
            let bad = lines.indices.filter { VCardReader.keptLineProblem(lines[$0].value) != nil }
            guard !bad.isEmpty else { continue }
            throw StoreError(
                .validationFailed, "A kept vCard line would not read back from the contact's export",
                affected: [contact.identifier], operationIndex: index,
                keyPaths: bad.map { "vCardProperties[\($0)].value" })
        }
    }
}
