import CarnetStore

/// Related names, social profiles and instant messaging.
extension CardEncoder {
    /// 3.0: Apple's `itemN.X-ABRELATEDNAMES` with the label in X-ABLabel. 4.0: RELATED as text, with RFC 6350's
    /// TYPE where one matches (friend, spouse, child, parent, colleague) and X-ABLabel otherwise.
    mutating func encodeRelations() {
        for relation in value(.contactRelations, \.contactRelations, []) {
            let name = Escaping.text(relation.value.name)
            if version == .v40 {
                labeled("RELATED", label: relation.label, kind: .relation, value: name, parameters: [("VALUE", "text")])
            } else {
                labeled("X-ABRELATEDNAMES", label: relation.label, kind: .relation, value: name, labelTypes: false)
            }
        }
    }

    /// `X-SOCIALPROFILE;type=twitter;x-user=jdoe:https://twitter.com/jdoe`; without a URL, Apple's
    /// `x-apple:username`. Readers split TYPE's value at commas, quoted or not (RFC 6350 writes
    /// `TYPE="voice,home"`), and Apple's lowercase `type=twitter` reads as "Twitter"; so a service with a comma,
    /// or one that differs from a known service only in case ("twitter"), goes in X-SERVICE-TYPE, read verbatim.
    mutating func encodeSocialProfiles() {
        for profile in value(.socialProfiles, \.socialProfiles, []) {
            let p = profile.value
            var parameters: [(String, String)] = []
            if !p.service.isEmpty {
                let known = Services.isKnownSocialService(p.service)
                let service = known ? p.service.lowercased() : p.service
                let verbatim =
                    service.utf8.contains(Byte.comma) || (!known && Services.socialService(service) != service)
                let name = verbatim ? "X-SERVICE-TYPE" : version == .v30 ? "type" : "TYPE"
                parameters.append((name, Escaping.parameter(service)))
            }
            if !p.username.isEmpty { parameters.append(("x-user", Escaping.parameter(p.username))) }
            if !p.userIdentifier.isEmpty { parameters.append(("x-userid", Escaping.parameter(p.userIdentifier))) }
            let value =
                p.urlString.isEmpty ? "x-apple:" + Escaping.uriComponent(p.username) : Escaping.uri(p.urlString)
            labeled("X-SOCIALPROFILE", label: profile.label, kind: .socialProfile, value: value, parameters: parameters)
        }
    }

    /// `IMPP;X-SERVICE-TYPE=Jabber;type=HOME:xmpp:jdoe@example.com`, the scheme Apple uses for the service.
    mutating func encodeInstantMessages() {
        for (index, address) in value(.instantMessageAddresses, \.instantMessageAddresses, []).enumerated() {
            let a = address.value
            let parameters = a.service.isEmpty ? [] : [("X-SERVICE-TYPE", Escaping.parameter(a.service))]
            let value = Services.scheme(forService: a.service) + ":" + Escaping.uriComponent(a.username)
            labeled(
                "IMPP", label: address.label, kind: .instantMessage, value: value, parameters: parameters,
                preferred: index == 0)
        }
    }
}
