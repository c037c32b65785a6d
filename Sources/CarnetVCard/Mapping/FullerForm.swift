import CarnetStore

/// What an N or ADR line says beyond its value's keys: RFC 9554's further components (N's secondary surname and
/// generation; ADR's room, apartment, floor, street number, street name, building, block, districts, landmark and
/// direction) and the parameters Carnet has no key for (ADR's LABEL, GEO and TZ; N's SORT-AS; ALTID).
///
/// Such a line is mapped and also kept with the contact (``keptLine``): its fuller form. An export puts the extras back on
/// the value while the value is still the one read, in 3.0 too, as it writes every kept line as read (readers of
/// 3.0 take the first seven ADR components and ignore parameters they do not know). Once an address changed they
/// describe an old one and are left out of exports, so an edited address never comes back as a second, stale
/// address on the next import. The kept line stays in `vCardProperties` either way: nothing read is lost.
struct FullerForm {
    enum Kind { case name, address }

    /// What a value is matched to its fuller form by.
    struct Key: Hashable {
        let kind: Kind
        let base: [String]
    }

    var key: Key { Key(kind: kind, base: base) }

    let kind: Kind
    /// The value's fields as mapped: N's family, given, middle, prefix and suffix, or ADR's street, city, state,
    /// postal code and country.
    let base: [String]
    /// The components past the value's own (N's sixth on, ADR's eighth on), unescaped.
    let components: [String]
    let parameters: [ContentLine.Parameter]

    /// Parameters with meaning on N or ADR that no key holds (ALTID pairs a value with its alternatives in other
    /// languages, which are kept as further N or ADR lines).
    static let keptParameters: Set<String> = ["LABEL", "GEO", "TZ", "SORT-AS", "ALTID"]
    /// Parameters carried with the others but not kept for themselves: LANGUAGE, which Outlook writes on every
    /// line and no other property keeps, matters beside ALTID.
    static let carriedParameters: Set<String> = keptParameters.union(["LANGUAGE"])
    static let nameComponents = 5
    static let addressComponents = 7

    /// The fuller form of a mapped line, or `nil` when the line says nothing beyond its value.
    init?(_ line: ContentLine, components parts: [String]) {
        let kind: Kind
        switch line.property {
        case .name?: kind = .name
        case .address?: kind = .address
        default: return nil
        }
        let count = kind == .name ? Self.nameComponents : Self.addressComponents
        let extra = Array(parts.dropFirst(count))
        guard
            extra.contains(where: { !TextCleaning.singleLine($0).isEmpty })
                || line.parameters.contains(where: { Self.keptParameters.contains($0.name) })
        else { return nil }
        let parameters = line.parameters.filter { Self.carriedParameters.contains($0.name) }
        self.kind = kind
        self.base = kind == .name ? Self.nameFields(parts) : Self.addressFields(Self.address(parts))
        self.components = extra
        self.parameters = parameters
    }

    /// A kept line read back, when it is an N or ADR with something beyond its value.
    init?(kept: String) {
        let head = kept.utf8.prefix { $0 != Byte.colon && $0 != Byte.semicolon }
        let name = head.split(separator: Byte.dot).last.map { String(decoding: $0, as: UTF8.self).uppercased() }
        guard name == "N" || name == "ADR" else { return nil }
        var bytes = Array(kept.utf8)
        let form = bytes.withUnsafeMutableBufferPointer { buffer -> FullerForm? in
            let buffer = UnsafeBufferPointer(buffer)
            let raw = RawLine(range: 0..<buffer.count, number: 1)
            guard let line = try? ContentLineParser.parse(raw, in: buffer, cardLine: 1),
                let parts = try? ValueDecoder(version: .v40, cardLine: 1).components(line)
            else { return nil }
            return FullerForm(line, components: parts)
        }
        guard let form else { return nil }
        self = form
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
        base.allSatisfy { $0.utf8.count <= StoreLimits.singleLineBytes }
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
        let value = kind == .name ? base : ["", ""] + base
        var line = kind == .name ? "N" : "ADR"
        for (name, parameterValue) in writtenParameters { line += ";\(name)=\(parameterValue)" }
        return line + ":" + Escaping.components(value + components)
    }
}
