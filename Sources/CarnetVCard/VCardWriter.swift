import CarnetStore

/// Writes contacts as vCard: 3.0 by default (what Apple, Google and CardDAV clients read best), 4.0 on request.
///
/// ```swift
/// let text = VCardWriter().write(contact, categories: ["Friends"], unmappedProperties: card.unmappedProperties)
/// ```
///
/// Each card starts with VERSION, has N and FN (composed from the name, else the organization), and ends with
/// its UID (the contact's identifier) and the properties kept from import. Lines end in CRLF and are folded at 75
/// octets without splitting a UTF-8 sequence. Well-known labels become TYPE parameters
/// (`TEL;type=HOME;type=FAX`); custom ones an `itemN.X-ABLabel`, as Apple writes them. Only the keys the
/// contact has available are read, so exporting contacts fetched with a few keys is fine.
public struct VCardWriter: Sendable {
    /// The vCard version to write.
    public enum Version: Sendable {
        /// RFC 2426, with Apple's extensions (X-ABLabel, X-ABShowAs, X-ABDATE, X-APPLE-OMIT-YEAR...).
        case v3
        /// RFC 6350: KIND, ANNIVERSARY, RELATED, `--MMDD` dates and data-URI photos.
        case v4
    }

    /// The version every card is written in.
    public var version: Version

    /// A writer of vCard 3.0, unless asked for 4.0.
    public init(version: Version = .v3) {
        self.version = version
    }

    /// One card.
    ///
    /// - Parameters:
    ///   - categories: The names of the contact's groups, written as CATEGORIES.
    ///   - unmappedProperties: Property lines kept from import (``VCardCard/unmappedProperties``), written back
    ///     as they are.
    ///   - uid: The card's UID; the contact's identifier when `nil`.
    public func write(
        _ contact: Contact, categories: [String] = [], unmappedProperties: [String] = [], uid: String? = nil
    ) -> String {
        var out = LineWriter()
        append(contact, categories: categories, unmappedProperties: unmappedProperties, uid: uid, to: &out)
        return out.text
    }

    /// A card read earlier, with its categories, unmapped properties and UID; a group card as a group card.
    public func write(_ card: VCardCard) -> String {
        if card.kind == .group {
            return writeGroup(
                name: card.groupName, uid: card.uid ?? card.contact.identifier, memberUIDs: card.memberUIDs)
        }
        return write(
            card.contact, categories: card.categories, unmappedProperties: card.unmappedProperties, uid: card.uid)
    }

    /// A group card: 4.0's `KIND:group` with `MEMBER:urn:uuid:<uid>` lines, or in 3.0 Apple's form
    /// (`X-ADDRESSBOOKSERVER-KIND:group`, `X-ADDRESSBOOKSERVER-MEMBER`), which iCloud and macOS read.
    ///
    /// - Parameters:
    ///   - memberUIDs: The members' UIDs, written in this order.
    ///   - isTaken: Whether a card of the book has this UID (``UIDReference/uri(_:isTaken:)``): a member
    ///     `urn:uuid:x` is written as it is unless another card's UID shares `x`. Every UID is taken by default, so
    ///     that the reference is exact whatever else the file holds.
    public func writeGroup(
        name: String, uid: String, memberUIDs: [String], isTaken: (String) -> Bool = { _ in true }
    ) -> String {
        var out = LineWriter()
        out.fold("BEGIN:VCARD")
        out.property("VERSION", value: version == .v3 ? "3.0" : "4.0")
        out.property("PRODID", value: "-//Carnet//Carnet vCard//EN")
        if version == .v4 {
            out.property("KIND", value: "group")
        } else {
            out.property("N", value: Escaping.components([name, "", "", "", ""]))
        }
        out.property("FN", value: Escaping.text(name))
        if version == .v3 { out.property("X-ADDRESSBOOKSERVER-KIND", value: "group") }
        let member = version == .v4 ? "MEMBER" : "X-ADDRESSBOOKSERVER-MEMBER"
        for uid in memberUIDs { out.property(member, value: UIDReference.uri(uid, isTaken: isTaken)) }
        out.property("UID", value: Escaping.text(uid))
        out.fold("END:VCARD")
        return out.text
    }

    /// Many cards, one after the other.
    ///
    /// - Parameters:
    ///   - categories: Group names by contact identifier.
    ///   - unmappedProperties: Kept property lines by contact identifier.
    public func write(
        _ contacts: some Sequence<Contact>, categories: [String: [String]] = [:],
        unmappedProperties: [String: [String]] = [:]
    ) -> String {
        var out = LineWriter(capacity: 64 * 1_024)
        for contact in contacts {
            append(
                contact, categories: categories[contact.identifier] ?? [],
                unmappedProperties: unmappedProperties[contact.identifier] ?? [], uid: nil, to: &out)
        }
        return out.text
    }

    /// Many cards read earlier.
    public func write(_ cards: some Sequence<VCardCard>) -> String {
        var out = LineWriter(capacity: 64 * 1_024)
        for card in cards {
            if card.kind == .group {
                out.append(write(card))
                continue
            }
            append(
                card.contact, categories: card.categories, unmappedProperties: card.unmappedProperties, uid: card.uid,
                to: &out)
        }
        return out.text
    }

    private func append(
        _ contact: Contact, categories: [String], unmappedProperties: [String], uid: String?, to out: inout LineWriter
    ) {
        var encoder = CardEncoder(
            contact: contact, version: version == .v3 ? .v30 : .v40, unmappedProperties: unmappedProperties,
            out: out)
        out = LineWriter(capacity: 0)  // the encoder owns the buffer while it writes; no copy of the bytes
        encoder.encode(categories: categories, unmappedProperties: unmappedProperties, uid: uid)
        out = encoder.out
    }
}
