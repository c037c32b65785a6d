import CarnetStore
import Foundation

/// Related names, social profiles and instant messaging.
extension CardDecoder {
    /// Apple's X-ABRELATEDNAMES (label in X-ABLabel) and 4.0's RELATED. A RELATED that points at a URI names
    /// no one by name, so it is kept unmapped; one that names a card by UID (`urn:uuid:...`) is also noted, for
    /// the import to resolve into a relation with that card's name.
    mutating func mapRelation(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let name = TextCleaning.singleLine(try values.text(line))
        if line.name == "RELATED", line.parameter("VALUE")?.lowercased() != "text", Self.looksLikeURI(name) {
            if Self.hasScheme(name, "urn:uuid:"), name.utf8.count > 9 {
                // The group's X-ABLabel stays with the kept line: read, not taken.
                let label =
                    line.group.flatMap { groupLabels[$0] } ?? TypeLabels.label(forTypes: line.types, kind: .relation)
                relatedUIDs.append(.init(label: label, uid: UIDReference.named(name), line: line.number))
            }
            return false
        }
        let label = label(for: line, kind: .relation)
        if !name.isEmpty {
            contactRelations.append(LabeledValue(label: label, value: ContactRelation(name: name)))
            source(.contactRelations)
        }
        return true
    }

    /// Apple's `X-SOCIALPROFILE;type=twitter;x-user=jdoe:https://twitter.com/jdoe`. The TYPE is the service,
    /// in the Contacts framework's spelling, unless X-SERVICE-TYPE names it verbatim (export's form for a service
    /// with a comma, which a TYPE list would split, or one spelled unlike the framework's constant); a profile
    /// with no URL has Apple's `x-apple:username` value.
    mutating func mapSocialProfile(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let value = TextCleaning.singleLine(try values.uri(line))
        var profile = SocialProfile(
            username: TextCleaning.singleLine(line.parameter("X-USER") ?? ""),
            userIdentifier: TextCleaning.singleLine(line.parameter("X-USERID") ?? ""))
        let service = line.parameters.lazy.filter { $0.name == "TYPE" }.flatMap {
            $0.value.unicodeScalars.split(separator: ",")
        }
        .map { TextCleaning.singleLine(String($0)) }.first { !$0.isEmpty && $0.lowercased() != "pref" }
        profile.service = service.map(Services.socialService) ?? ""
        if let named = line.parameter("X-SERVICE-TYPE").map(TextCleaning.singleLine), !named.isEmpty {
            profile.service = named
        }
        if Self.hasScheme(value, "x-apple:") {
            // Apple's form for a profile without a URL repeats the username; a value naming another is a URL of
            // its own (a profile saved with the URL `x-apple:foo` and the username `bar` lost its URL on re-import).
            let named = TextCleaning.singleLine(Self.percentDecoded(String(value.unicodeScalars.dropFirst(8))))
            if profile.username.isEmpty {
                profile.username = named
            } else if !profile.username.hasSameBytes(as: named) {
                profile.urlString = value
            }
        } else {
            profile.urlString = value
        }
        let label = label(for: line, kind: .socialProfile)
        if profile != SocialProfile() {
            socialProfiles.append(LabeledValue(label: label, value: profile))
            source(.socialProfiles)
        }
        return true
    }

    /// `IMPP;X-SERVICE-TYPE=Jabber;type=HOME:xmpp:jdoe@example.com`; X-SERVICE-TYPE is read verbatim (Apple
    /// writes the framework's spelling there, and export writes the service as saved); without it the scheme
    /// names the service.
    mutating func mapInstantMessage(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let value = TextCleaning.singleLine(try values.text(line))
        var username = value
        var service = ""
        // Split by scalar: `:` before a combining mark (`xmpp:\u{301}x`) is one Character, which kept the scheme.
        let scalars = value.unicodeScalars
        if let colon = scalars.firstIndex(of: ":"), Self.looksLikeURI(value) {
            service = Services.service(forScheme: String(scalars[..<colon]))
            let rest = String(scalars[scalars.index(after: colon)...])
            username = TextCleaning.singleLine(Self.percentDecoded(rest))
        }
        if let named = line.parameter("X-SERVICE-TYPE").map(TextCleaning.singleLine), !named.isEmpty {
            service = named
        }
        let label = label(for: line, kind: .instantMessage)
        if !username.isEmpty {
            let address = InstantMessageAddress(username: username, service: service)
            instantMessageAddresses.append(LabeledValue(label: label, value: address))
            source(.instantMessageAddresses)
        }
        return true
    }

    /// `X-AIM;type=HOME:jdoe` and its kin, from before IMPP.
    mutating func mapLegacyInstantMessage(_ line: ContentLine, service: String) throws(VCardIssue) -> Bool {
        let username = TextCleaning.singleLine(try values.text(line))
        let label = label(for: line, kind: .instantMessage)
        if !username.isEmpty {
            let address = InstantMessageAddress(username: username, service: service)
            legacyInstantMessageAddresses.append(LabeledValue(label: label, value: address))
            legacyInstantMessageLines.append(current)
        }
        return true
    }

    /// The text with `%XX` escapes decoded; as it is when it has none, one is malformed, or they are not valid
    /// UTF-8. Byte by byte: Foundation's `removingPercentEncoding` dropped a leading U+FEFF with the escapes, so a
    /// username starting with one changed when one's own export was read back (an outside tester's find).
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Byte.hexValue), let low = iterator.next().flatMap(Byte.hexValue)
            else { return text }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    /// Whether the text starts with a URI scheme (`letter *(letter / digit / "+" / "-" / ".") ":"`).
    static func looksLikeURI(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: Byte.colon), colon > text.utf8.startIndex else { return false }
        let scheme = text.utf8[..<colon]
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(Byte.uppercased(byte)) }
        guard let first = scheme.first, isLetter(first) else { return false }
        return scheme.allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
