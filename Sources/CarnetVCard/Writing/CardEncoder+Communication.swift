import CarnetStore

/// TEL, EMAIL, ADR and URL; the first of each is marked preferred, as Apple does.
extension CardEncoder {
    mutating func encodePhones() {
        for (index, phone) in value(.phoneNumbers, \.phoneNumbers, []).enumerated() {
            labeled(
                "TEL", label: phone.label, kind: .phone, value: Escaping.text(Self.withScheme("tel:", phone.value)),
                parameters: keptParameters(.phone, phone.value), preferred: index == 0)
        }
    }

    /// A value that begins with the scheme its reader takes off (`tel:`, `mailto:`, any case), written with it
    /// once more, so that it reads back as saved: `tel:+1555` was read as `+1555` (an outside tester's find).
    static func withScheme(_ scheme: String, _ value: String) -> String {
        CardDecoder.hasScheme(value, scheme) ? scheme + value : value
    }

    mutating func encodeEmails() {
        let internet = version == .v30 ? ["INTERNET"] : []
        for (index, email) in value(.emailAddresses, \.emailAddresses, []).enumerated() {
            labeled(
                "EMAIL", label: email.label, kind: .email,
                value: Escaping.text(Self.withScheme("mailto:", email.value)),
                parameters: keptParameters(.email, email.value), leadingTypes: internet, preferred: index == 0)
        }
    }

    /// ADR with the street in the street component (its lines as `\n`), and Apple's grouped X-ABADR (ISO
    /// country code), X-APPLE-SUBLOCALITY and X-APPLE-SUBADMINISTRATIVEAREA.
    mutating func encodeAddresses() {
        for (index, address) in value(.postalAddresses, \.postalAddresses, []).enumerated() {
            let a = address.value
            var components = ["", "", a.street, a.city, a.state, a.postalCode, a.country]
            var parameters: [(String, String)] = []
            if let form = takeFullerForm(.address, base: FullerForm.addressFields(a)) {
                components += form.components
                parameters = form.writtenParameters
            }
            var grouped: [(name: String, value: String)] = []
            if !a.isoCountryCode.isEmpty { grouped.append(("X-ABADR", Escaping.text(a.isoCountryCode))) }
            if !a.subLocality.isEmpty { grouped.append(("X-APPLE-SUBLOCALITY", Escaping.text(a.subLocality))) }
            if !a.subAdministrativeArea.isEmpty {
                grouped.append(("X-APPLE-SUBADMINISTRATIVEAREA", Escaping.text(a.subAdministrativeArea)))
            }
            labeled(
                "ADR", label: address.label, kind: .address, value: Escaping.components(components),
                parameters: parameters, preferred: index == 0, grouped: grouped)
        }
    }

    /// The parameters a value's fuller form keeps (PID, `X-`...), when it has one.
    private mutating func keptParameters(_ kind: FullerForm.Kind, _ value: String) -> [(String, String)] {
        guard !fullerForms.isEmpty else { return [] }
        return takeFullerForm(kind, base: [value])?.writtenParameters ?? []
    }

    /// URLs are URIs, not text: written without text escapes (``Escaping/uri(_:)``), which many readers would keep.
    mutating func encodeURLs() {
        for (index, url) in value(.urlAddresses, \.urlAddresses, []).enumerated() {
            labeled(
                "URL", label: url.label, kind: .url, value: Escaping.uri(url.value),
                parameters: keptParameters(.url, url.value),
                preferred: index == 0)
        }
    }
}
