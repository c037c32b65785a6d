import CarnetStore

/// PREF. The Contacts framework has no preferred value but the first, which is where Apple's writers and Carnet's
/// put `TYPE=pref` (4.0: `PREF=1`). A value another writer marks preferred further down comes first, in order of
/// 4.0's rank (1 to 100, 3.0's and 2.1's `pref` counting as 1), and the unmarked ones keep their file order after.
extension CardDecoder {
    /// Notes the preference of the value of `key` just appended from `line`.
    mutating func notePreference(_ key: ContactKey, _ line: ContentLine) {
        preferenceRanks[key, default: []].append(Self.preferenceRank(line))
    }

    static let unranked = Int.max

    static func preferenceRank(_ line: ContentLine) -> Int {
        if let text = line.parameter("PREF"), let rank = Int(text), (1...100).contains(rank) { return rank }
        return line.types.contains("pref") ? 1 : unranked
    }

    /// `values` of `key` in order of preference, stable, and the lines they came from with them (errors name them).
    mutating func orderedByPreference<T>(_ values: [LabeledValue<T>], _ key: ContactKey) -> [LabeledValue<T>] {
        // Most cards mark nothing, or only their first value: they cost no sort and no scan of the sources.
        guard let ranks = preferenceRanks[key], ranks.count == values.count,
            ranks.dropFirst().contains(where: { $0 != Self.unranked })
        else { return values }
        let order = ranks.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }
        let positions = sources.indices.filter { sources[$0].key == key.ordinal }
        guard order != Array(ranks.indices), positions.count == order.count else { return values }
        let lines = positions.map { sources[$0].line }
        for (position, index) in zip(positions, order) { sources[position].line = lines[index] }
        return order.map { values[$0] }
    }
}
