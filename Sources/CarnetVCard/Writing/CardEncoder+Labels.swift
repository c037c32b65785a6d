import CarnetStore

extension CardEncoder {
    /// Writes one labeled value. A label with TYPE values becomes TYPE parameters; any other label goes in an
    /// `itemN.X-ABLabel` beside the property, as Apple writes custom labels. `grouped` lines (X-ABADR...) share
    /// the group. `labelTypes: false` writes every label as an X-ABLabel.
    mutating func labeled(
        _ name: String, label: String?, kind: LabelKind, value: String, parameters: [(String, String)] = [],
        leadingTypes: [String] = [], preferred: Bool = false, grouped: [(name: String, value: String)] = [],
        labelTypes: Bool = true
    ) {
        var types = leadingTypes
        var customLabel: String?
        if let label, !label.isEmpty {
            if labelTypes, let known = TypeLabels.types(for: label, kind: kind) {
                types += known
            } else {
                customLabel = label
            }
        }
        var allParameters = parameters
        if preferred, version == .v30 { types.append("pref") }
        allParameters += typeParameters(types)
        if preferred, version == .v40 { allParameters.append(("PREF", "1")) }
        let group = customLabel != nil || !grouped.isEmpty ? nextGroup() : nil
        out.property(name, group: group, parameters: allParameters, value: value)
        if let customLabel { out.property("X-ABLabel", group: group, value: Escaping.text(customLabel)) }
        for line in grouped { out.property(line.name, group: group, value: line.value) }
    }

    /// 3.0 repeats the parameter as Apple does (`type=HOME;type=FAX`); 4.0 lists lowercase values (`TYPE=home,fax`).
    func typeParameters(_ types: [String]) -> [(String, String)] {
        guard !types.isEmpty else { return [] }
        if version == .v30 { return types.map { ("type", $0.uppercased() == "PREF" ? "pref" : $0.uppercased()) } }
        return [("TYPE", types.map { $0.lowercased() }.joined(separator: ","))]
    }
}
