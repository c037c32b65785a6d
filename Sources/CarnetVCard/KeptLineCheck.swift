import CarnetStore

extension VCardReader {
    /// Why a kept line (``ContactKey/vCardProperties``) of a property the reader maps would not read back from an
    /// export, or nil. The store checks a line's shape (``KeptVCardLine``); this is what only the reader knows: a
    /// value it cannot decode (a PHOTO that is no base64, broken quoted-printable) makes it skip the whole card,
    /// and a KIND of group turns the card into a group's, so the contact was lost on re-import (an outside
    /// tester's find). The line is read alone, as its property's first line in both versions: the strictest place
    /// it can stand. The export leaves such a line out (``CardEncoder``); it is not refused at save, since the
    /// importer keeps such lines where they read back (a second PHOTO after the card's own), and a client that
    /// sends a contact's own lines back must not be refused.
    /// - Parameter versions: the versions to read it in (`"3.0"`, `"4.0"`); an export asks for its own.
    public static func keptLineProblem(_ line: String, versions: [String] = ["3.0", "4.0"]) -> String? {
        for version in versions {
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
