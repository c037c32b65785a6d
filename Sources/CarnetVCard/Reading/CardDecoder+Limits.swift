import CarnetStore

/// Values over the store's limits: decoding runs again with their lines kept unmapped, until the contact is one
/// the store takes, so a card imports whole and nothing of it is lost.
extension CardDecoder {
    /// Decodes the card whose unfolded lines are `lines` in `buffer`. A value the store would refuse as a key
    /// (over a limit: a long note, a long custom label, a 101st phone number) is kept unmapped instead, with a
    /// warning naming its line and key, so the card imports whole.
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, lines rawLines: [RawLine], beginLine: Int, maxPhotoBytes: Int,
        textIsDecoded: Bool = false
    ) throws(VCardIssue) -> VCardCard {
        var lines: [ContentLine] = []
        lines.reserveCapacity(rawLines.count)
        for raw in rawLines { lines.append(try ContentLineParser.parse(raw, in: buffer, cardLine: beginLine)) }
        let version = try VCardVersion.of(lines, cardLine: beginLine)
        var values = ValueDecoder(version: version, cardLine: beginLine)
        values.textIsDecoded = textIsDecoded
        var excluded: Set<Int> = []
        var warnings: [VCardWarning] = []
        // Each pass keeps more lines unmapped; a name the FN fills in after its N was kept may need one more.
        for _ in 0..<4 {
            var decoder = CardDecoder(lines: lines, values: values, maxPhotoBytes: maxPhotoBytes)
            decoder.excluded = excluded
            decoder.sources.reserveCapacity(lines.count)
            var card = try decoder.run(beginLine: beginLine)
            let problems = card.kind == .group ? [] : SaveRequest.validationProblems(ofNewContact: card.contact)
            var progressed = false
            for path in problems {
                for index in decoder.sourceLines(for: path) where excluded.insert(index).inserted {
                    progressed = true
                    warnings.append(
                        VCardWarning(
                            line: lines[index].number, cardLine: beginLine, key: path,
                            message: "\(lines[index].name) over the store's limits, kept as a vCard property"))
                }
            }
            if !progressed {
                // Nothing left to keep aside: the importer skips a card the store would still refuse.
                decoder.noteKeptAside(&warnings, beginLine: beginLine)
                card.warnings = warnings.sorted { ($0.line, $0.key) < ($1.line, $1.key) }
                card.unresolvedProblems = problems
                return card
            }
        }
        var decoder = CardDecoder(lines: lines, values: values, maxPhotoBytes: maxPhotoBytes)
        decoder.excluded = excluded
        var card = try decoder.run(beginLine: beginLine)
        decoder.noteKeptAside(&warnings, beginLine: beginLine)
        card.warnings = warnings.sorted { ($0.line, $0.key) < ($1.line, $1.key) }
        card.unresolvedProblems = SaveRequest.validationProblems(ofNewContact: card.contact)
        return card
    }

    /// The warnings for lines the decoder itself kept aside: a photo over the image limit, CATEGORIES naming more
    /// groups than a card may put its contact in; for kept lines it cleaned of control characters, and for BEGIN
    /// and END lines inside the card and lines past the store's count of vCard properties, which are not kept.
    func noteKeptAside(_ warnings: inout [VCardWarning], beginLine: Int) {
        func note(_ index: Int, _ key: String, _ what: String) {
            warnings.append(
                VCardWarning(
                    line: lines[index].number, cardLine: beginLine, key: key,
                    message: "\(what), kept as a vCard property"))
        }
        if let index = oversizedPhoto { note(index, "imageData", "PHOTO over the store's image limit") }
        if let index = overlongCategories {
            note(index, "CATEGORIES", "CATEGORIES past \(StoreLimits.categoriesPerCard) groups")
        }
        for index in longCategoryNames {
            note(index, "CATEGORIES", "CATEGORIES with a name over a group name's \(StoreLimits.singleLineBytes) bytes")
        }
        /// A warning at each of the lines, keyed by its property's name.
        func warnEach(_ indices: [Int], _ message: (Int) -> String) {
            for index in indices {
                warnings.append(
                    VCardWarning(
                        line: lines[index].number, cardLine: beginLine, key: lines[index].name,
                        message: message(index)))
            }
        }
        warnEach(cardBoundaryLines) { "a \(lines[$0].name) line inside the card, not kept: a card cannot carry it" }
        warnEach(unreadableDates) { _ in "not a date the store can hold, kept as a vCard property" }
        warnEach(timedDates) { _ in "the date is kept, not its time of day, which the store holds in no value" }
        warnEach(extraUIDLines) { _ in "a second UID, not kept: the contact keeps the card's first" }
        warnEach(cleanedKeptLines) { _ in "control characters removed, the rest kept as a vCard property" }
        warnEach(trimmedMarkLines) { _ in
            "combining marks past \(CombiningMarks.maxRun) in a row removed, the rest kept as a vCard property"
        }
        warnEach(cleanedValueLines) { _ in
            "control characters removed from the value (a tab or line break in a one-line value became a space), which the store holds in no value"
        }
        if let first = droppedKeptLines.first {
            // Their own warnings said they were kept.
            let dropped = Set(droppedKeptLines.map { lines[$0].number })
            warnings.removeAll { dropped.contains($0.line) }
            warnings.append(
                VCardWarning(
                    line: lines[first].number, cardLine: beginLine, key: "vCardProperties",
                    message:
                        "\(droppedKeptLines.count) lines from this one on not kept: past the store's \(StoreLimits.vCardPropertiesPerContact) vCard properties"
                ))
        }
    }

    /// The lines a refused key path's value came from: the value's own line, every line of a single-value key,
    /// the lines past the limit for a key with too many values.
    func sourceLines(for path: String) -> [Int] {
        let base = path.prefix { $0 != "[" && $0 != "." }
        guard let key = ContactKey(rawValue: String(base)) else { return [] }
        let lines = sources.filter { $0.key == key.ordinal }.map(\.line)
        guard let open = path.firstIndex(of: "[") else {
            return key.isMultiValue ? Array(lines.dropFirst(StoreLimits.valuesPerProperty)) : lines
        }
        let digits = path[path.index(after: open)...].prefix { $0.isNumber }
        guard let index = Int(digits), lines.indices.contains(index) else { return [] }
        return [lines[index]]
    }

    /// Records that the line being mapped gave `key` a value.
    mutating func source(_ key: ContactKey, line: Int? = nil) {
        sources.append((key.ordinal, line ?? current))
    }
}
