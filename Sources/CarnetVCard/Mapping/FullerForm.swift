import CarnetStore

/// What an N, ADR, TEL, EMAIL or URL line says beyond its value's keys: RFC 9554's further components (N's
/// secondary surname and generation; ADR's room, apartment, floor, street number, street name, building, block,
/// districts, landmark and direction) and the parameters Carnet has no key for (ADR's LABEL, GEO and TZ; N's
/// SORT-AS; ALTID; a TEL's, EMAIL's or URL's PID and `X-` parameters, such as Evolution's `X-EVOLUTION-UI-SLOT`).
///
/// Such a line is mapped and also kept with the contact (``keptLine``): its fuller form. An export puts the extras
/// back on the value while the value is still the one read, in 3.0 too, as it writes every kept line as read
/// (readers of 3.0 take the first seven ADR components and ignore parameters they do not know). Once a value other
/// than the name changed, they describe an old one and are left out of exports, so an edited value never comes
/// back as a second, stale value on the next import. The kept line stays in `vCardProperties` either way: nothing
/// read is lost.
struct FullerForm {
    /// In the order ``CardEncoder`` writes the values, which is the order they are kept in, so that an export
    /// reads back to the same kept lines.
    enum Kind: Int, Comparable {
        case name, phone, email, address, url

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What a value is matched to its fuller form by.
    struct Key: Hashable {
        let kind: Kind
        let base: [String]
    }

    var key: Key { Key(kind: kind, base: base) }

    let kind: Kind
    /// The value's fields as mapped: N's family, given, middle, prefix and suffix, ADR's street, city, state,
    /// postal code and country, or the one value of a TEL, EMAIL or URL.
    let base: [String]
    /// The components past the value's own (N's sixth on, ADR's eighth on), unescaped.
    let components: [String]
    let parameters: [ContentLine.Parameter]

    /// Parameters with meaning on N or ADR that no key holds (ALTID pairs a value with its alternatives in other
    /// languages, which are kept as further N or ADR lines).
    static let keptParameters: Set<String> = ["LABEL", "GEO", "TZ", "SORT-AS", "ALTID"]
    /// The same for TEL, EMAIL and URL, besides any `X-` parameter (which the reader takes from none of them).
    static let keptValueParameters: Set<String> = ["PID", "ALTID"]
    /// Parameters carried with the others but not kept for themselves: LANGUAGE, which Outlook writes on every
    /// line and no other property keeps, matters beside ALTID.
    static let carried: Set<String> = ["LANGUAGE"]

    /// Whether a parameter of a line of `kind` is kept for itself.
    static func keeps(_ name: String, _ kind: Kind) -> Bool {
        switch kind {
        case .name, .address: keptParameters.contains(name)
        case .phone, .email, .url: keptValueParameters.contains(name) || name.hasPrefix("X-")
        }
    }

    static let nameComponents = 5
    static let addressComponents = 7

    /// The kind of a property that has fuller forms.
    static func kind(of property: Property?) -> Kind? {
        switch property {
        case .name?: .name
        case .address?: .address
        case .telephone?: .phone
        case .email?: .email
        case .url?: .url
        default: nil
        }
    }

    /// The fuller form of a mapped N or ADR line, or `nil` when the line says nothing beyond its value.
    init?(_ line: ContentLine, components parts: [String]) {
        guard let kind = Self.kind(of: line.property), kind == .name || kind == .address else { return nil }
        let extra = Array(parts.dropFirst(kind == .name ? Self.nameComponents : Self.addressComponents))
        guard
            extra.contains(where: { !TextCleaning.singleLine($0).isEmpty })
                || line.parameters.contains(where: { Self.keeps($0.name, kind) })
        else { return nil }
        let base = kind == .name ? Self.nameFields(parts) : Self.addressFields(Self.address(parts))
        self.init(kind, line, base: base, components: extra)
    }

    /// The fuller form of a mapped TEL, EMAIL or URL line whose value maps to `value`, or `nil` when the line says
    /// nothing beyond it.
    init?(_ line: ContentLine, value: String) {
        guard let kind = Self.kind(of: line.property), kind != .name, kind != .address,
            line.parameters.contains(where: { Self.keeps($0.name, kind) })
        else { return nil }
        self.init(kind, line, base: [value], components: [])
    }

    private init(_ kind: Kind, _ line: ContentLine, base: [String], components: [String]) {
        self.kind = kind
        self.base = base
        self.components = components
        self.parameters = line.parameters.filter { Self.keeps($0.name, kind) || Self.carried.contains($0.name) }
    }

    /// A kept line read back, when it is a fuller form: an N, ADR, TEL, EMAIL or URL with something beyond its
    /// value.
    init?(kept: String) {
        let head = kept.utf8.prefix { $0 != Byte.colon && $0 != Byte.semicolon }
        let name = head.split(separator: Byte.dot).last.map { String(decoding: $0, as: UTF8.self).uppercased() }
        guard let kind = Self.kind(of: name.flatMap { Property.byName[$0] }) else { return nil }
        var bytes = Array(kept.utf8)
        let form = bytes.withUnsafeMutableBufferPointer { buffer -> FullerForm? in
            let buffer = UnsafeBufferPointer(buffer)
            let raw = RawLine(range: 0..<buffer.count, number: 1)
            let values = ValueDecoder(version: .v40, cardLine: 1)
            guard let line = try? ContentLineParser.parse(raw, in: buffer, cardLine: 1) else { return nil }
            if kind == .name || kind == .address {
                return (try? values.components(line)).flatMap { FullerForm(line, components: $0) }
            }
            guard let text = try? values.text(line), let property = line.property else { return nil }
            return FullerForm(line, value: Self.mappedValue(property, text))
        }
        guard let form else { return nil }
        self = form
    }

    /// A TEL's, EMAIL's or URL's value as the reader maps it: one line, a `tel:` or `mailto:` scheme taken off.
    static func mappedValue(_ property: Property, _ text: String) -> String {
        let value = TextCleaning.singleLine(text)
        switch property {
        case .telephone where CardDecoder.hasScheme(value, "tel:"):
            return TextCleaning.trimmed(String(value.unicodeScalars.dropFirst(4)))
        case .email where CardDecoder.hasScheme(value, "mailto:"):
            return TextCleaning.trimmed(String(value.unicodeScalars.dropFirst(7)))
        default: return value
        }
    }

    /// N's five name parts as the decoder maps them.
    static func nameFields(_ parts: [String]) -> [String] {
        (0..<nameComponents).map { parts.indices.contains($0) ? TextCleaning.singleLine(parts[$0]) : "" }
    }

    /// ADR's seven components as the decoder maps them: the PO box and extended address join the street's lines.
    static func address(_ parts: [String]) -> PostalAddress {
        let part = { (index: Int) in parts.indices.contains(index) ? parts[index] : "" }
        let streetLines = [part(2), part(1), part(0)].map(TextCleaning.multiLine).filter { !$0.isEmpty }
        return PostalAddress(
            street: streetLines.joined(separator: "\n"), city: TextCleaning.singleLine(part(3)),
            state: TextCleaning.singleLine(part(4)), postalCode: TextCleaning.singleLine(part(5)),
            country: TextCleaning.singleLine(part(6)))
    }

    /// The address fields ADR's own components give (not those of Apple's helper lines).
    static func addressFields(_ address: PostalAddress) -> [String] {
        [address.street, address.city, address.state, address.postalCode, address.country]
    }

    /// Whether the store could hold the value: a fuller form over a limit was kept because of the limit (the
    /// value is not the contact's), and is written back as kept, not taken for a stale one.
    func fitsStore(valueCount: Int) -> Bool {
        let limit =
            switch kind {
            case .name, .address: StoreLimits.singleLineBytes
            case .phone: StoreLimits.phoneBytes
            case .email: StoreLimits.emailBytes
            case .url: StoreLimits.urlBytes
            }
        return base.allSatisfy { $0.utf8.count <= limit }
            && (kind == .name || valueCount < StoreLimits.valuesPerProperty)
    }
}

extension FullerForm {
    /// The kept parameters as a writer puts them on the value's line.
    var writtenParameters: [(String, String)] {
        parameters.map { ($0.name, Escaping.parameter($0.value)) }
    }

    /// The line kept with the contact: the value as the writer writes it with the extras, without the group,
    /// label and preference the writer gives the value. An export read back keeps the same line, so importing
    /// one's own export changes nothing.
    var keptLine: String {
        var line: String
        let value: String
        switch kind {
        case .name: (line, value) = ("N", Escaping.components(base + components))
        case .address: (line, value) = ("ADR", Escaping.components(["", ""] + base + components))
        case .phone: (line, value) = ("TEL", Escaping.text(base[0]))
        case .email: (line, value) = ("EMAIL", Escaping.text(base[0]))
        // As the writer writes a URL: a URI, not text.
        case .url: (line, value) = ("URL", base[0])
        }
        for (name, parameterValue) in writtenParameters { line += ";\(name)=\(parameterValue)" }
        return line + ":" + value
    }
}
