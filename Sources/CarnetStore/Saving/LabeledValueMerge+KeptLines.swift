extension LabeledValueMerge {
    /// The given values, a kept vCard line without an identifier taking the one of a stored line of the same bytes
    /// that no given value names (each stored line once, in order). The API carries kept lines as text, without
    /// identifiers: every update made them all new, so a stale update took every current line for one added since
    /// its base, kept it after its own, and the contact held each line twice (an outside tester's find). Other
    /// kinds' values carry their identifiers through the API, and one without is new.
    package static func identifyingKeptLines(
        _ kind: MultiValueKind, given: [EncodedLabeledValue], stored: [StoredLabeledValue]
    ) -> [EncodedLabeledValue] {
        guard kind == .vCardProperties, given.contains(where: { $0.identifier == nil }) else { return given }
        let named = Set(given.compactMap(\.identifier))
        var unnamed: [[UInt8]: [String]] = [:]
        for line in stored where !named.contains(line.identifier) {
            unnamed[contentKey(line.label, line.value), default: []].append(line.identifier)
        }
        return given.map { item in
            guard item.identifier == nil else { return item }
            let key = contentKey(item.label, item.value)
            guard var identifiers = unnamed[key], !identifiers.isEmpty else { return item }
            let identifier = identifiers.removeFirst()
            unnamed[key] = identifiers
            return EncodedLabeledValue(identifier: identifier, label: item.label, value: item.value)
        }
    }

    /// A value's label and content as bytes, a missing label apart from an empty one.
    private static func contentKey(_ label: String?, _ value: String) -> [UInt8] {
        guard let label else { return [0] + Array(value.utf8) }
        return [1] + Array(label.utf8) + [0] + Array(value.utf8)
    }
}
