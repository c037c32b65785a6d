import CarnetStore
import Foundation

/// Builds a ``VCardCard`` from a scanned card: each property is mapped to a contact key or kept unmapped.
///
/// A property whose value cannot be understood as its key needs (a BDAY of "circa 1800", a RELATED that is a
/// URI) is kept unmapped rather than dropped. A value that cannot be decoded at all (bad quoted-printable,
/// invalid UTF-8, an oversized photo) makes the whole card an issue, so a card is never imported in part.
struct CardDecoder {
    let lines: [ContentLine]
    let values: ValueDecoder
    let maxPhotoBytes: Int

    var contactType = ContactType.person
    var uid: String?
    var formattedName: String?
    /// The string keys' values by ``ContactKey/ordinal``; empty for none.
    var strings = [String](repeating: "", count: 16)
    var birthday: ContactDate?
    var nonGregorianBirthday: ContactDate?
    var imageData: Data?
    var phoneNumbers: [LabeledValue<String>] = []
    var emailAddresses: [LabeledValue<String>] = []
    var postalAddresses: [LabeledValue<PostalAddress>] = []
    var urlAddresses: [LabeledValue<String>] = []
    var dates: [LabeledValue<ContactDate>] = []
    var contactRelations: [LabeledValue<ContactRelation>] = []
    var socialProfiles: [LabeledValue<SocialProfile>] = []
    var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
    /// IM addresses from X-AIM-style properties, kept apart so the ones an IMPP repeats are dropped.
    var legacyInstantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
    var legacyInstantMessageLines: [Int] = []
    var categories: [String] = []
    /// Dates mapped without the time of day their value gave.
    var timedDates: [Int] = []
    /// UID lines after the first, not kept.
    var extraUIDLines: [Int] = []
    var hasCategories = false
    /// The names in ``categories``, for a linear dedup: a list of 200,000 names took minutes with `contains`. Byte
    /// for byte: "José" and "Jose\u{301}" are two groups to the store, and a contact in both kept one.
    var categoryNames: Set<ExactText> = []
    var isGroup = false
    var memberUIDs: [String] = []
    var memberLines: [Int] = []
    var formattedNameLine: Int?
    /// The PHOTO line kept because its image is over `maxPhotoBytes`.
    var oversizedPhoto: Int?
    /// The first CATEGORIES line kept because the card's categories would pass ``StoreLimits/categoriesPerCard``.
    var overlongCategories: Int?
    /// CATEGORIES lines kept because a name of theirs is longer than a group's name may be.
    var longCategoryNames: [Int] = []
    /// Kept lines whose control characters (which the store holds in no value) were taken out.
    var cleanedKeptLines: [Int] = []
    /// Kept lines whose runs of combining marks were cut to the store's limit.
    var trimmedMarkLines: [Int] = []
    /// Mapped lines whose value lost control characters (a tab outside a multi-line value became a space): said,
    /// not silently altered.
    var cleanedValueLines: [Int] = []
    /// Date lines (BDAY, ANNIVERSARY, X-ABDATE…) whose value is no date the store can hold (`2023-02-30`, an
    /// unknown CALSCALE): kept as written, and said.
    var unreadableDates: [Int] = []
    /// Lines that would have been kept past ``StoreLimits/vCardPropertiesPerContact``: not kept.
    var droppedKeptLines: [Int] = []
    /// BEGIN and END lines inside the card (`END:VCARDBEGIN:VCARD`, two lines run together): not kept, as no
    /// export could write them back without ending the card.
    var cardBoundaryLines: [Int] = []
    var relatedUIDs: [VCardCard.RelatedUID] = []

    /// Lines a first pass found the store could not hold as keys: kept unmapped this time.
    var excluded: Set<Int> = []
    /// The index of the line being mapped.
    var current = 0
    /// Which line gave each key a value (key by ``ContactKey/ordinal``), in mapping order: one entry per value of
    /// a multi-value, in the value's order. What a value the store refuses is traced back to. One flat list, so a
    /// card costs one allocation for it, not one per key.
    var sources: [(key: Int, line: Int)] = []
    /// Each preference-ordered key's values' PREF ranks, in file order (``notePreference(_:_:)``).
    var preferenceRanks: [ContactKey: [Int]] = [:]

    /// X-ABLabel values by group, and the groups whose label a mapped property took.
    var groupLabels: [String: String] = [:]
    var usedLabelGroups: Set<String> = []
    /// The groups whose X-ABADR / X-APPLE-SUBLOCALITY / X-APPLE-SUBADMINISTRATIVEAREA an ADR took.
    var usedAddressGroups: Set<String> = []
    /// Indexes of lines kept unmapped, and of the group helper lines decided at the end.
    var unmapped: [Int] = []
    var helpers: [Int] = []
    /// The kept lines of lines that say more than their value (``FullerForm``), in line order. They are kept
    /// before the other lines, in the order an export writes them, so an export reads back the same.
    var fullerForms: [(kind: FullerForm.Kind, line: Int, text: String)] = []
    /// The helper lines of each group, in line order.
    var helpersByGroup: [String: [Int]] = [:]
    /// The fields each group's address helpers give, read at the group's first address.
    var addressHelpers: [String: [(WritableKeyPath<PostalAddress, String>, String)]] = [:]
    /// The single-value properties already mapped (bits by ``Property`` raw value); a repeat is kept unmapped.
    var seen: UInt64 = 0

    mutating func run(beginLine: Int) throws(VCardIssue) -> VCardCard {
        for index in lines.indices where lines[index].property?.isGroupHelper == true {
            helpers.append(index)
            if let group = lines[index].group { helpersByGroup[group, default: []].append(index) }
            guard lines[index].property == .appleLabel, let group = lines[index].group else { continue }
            let label = TextCleaning.singleLine(try values.text(lines[index]))
            if !label.isEmpty, groupLabels[group] == nil { groupLabels[group] = label }
        }
        for index in lines.indices {
            current = index
            if excluded.contains(index) {
                unmapped.append(index)
                continue
            }
            if lines[index].name == "BEGIN" || lines[index].name == "END" {
                cardBoundaryLines.append(index)
                continue
            }
            if try !map(lines[index]) {
                unmapped.append(index)
            } else if valueLostCharacters(lines[index]) {
                cleanedValueLines.append(index)
            }
        }
        // MEMBER means something only on a group card; elsewhere it is kept as written.
        if !isGroup { unmapped += memberLines }
        for index in helpers {
            let line = lines[index]
            let used = line.property == .appleLabel ? usedLabelGroups : usedAddressGroups
            if !(line.group.map(used.contains) ?? false) { unmapped.append(index) }
        }
        unmapped.sort()
        // Past the store's limit the lines are left out, not the card (which the store would refuse whole).
        let limit = StoreLimits.vCardPropertiesPerContact
        var kept: [String] = []
        kept.reserveCapacity(min(unmapped.count + fullerForms.count, limit))
        for form in fullerForms.sorted(by: { ($0.kind, $0.line) < ($1.kind, $1.line) }).prefix(limit) {
            kept.append(cleaned(form.text, line: form.line))
        }
        droppedKeptLines = Array(unmapped.dropFirst(limit - kept.count))
        for index in unmapped.prefix(limit - kept.count) {
            kept.append(cleaned(try values.raw(lines[index]), line: index))
        }
        var card = VCardCard(
            contact: makeContact(), uid: uid, categories: categories, unmappedProperties: kept,
            version: values.version.rawValue, line: beginLine)
        card.relatedUIDs = relatedUIDs
        card.hasCategories = hasCategories || !categories.isEmpty
        if isGroup {
            card.kind = .group
            card.groupName = formattedName ?? ""
            if card.groupName.isEmpty { card.groupName = self[.familyName] }
            card.memberUIDs = memberUIDs
            card.memberLines = memberLines.map { lines[$0].number }
        }
        return card
    }

    /// Maps one line; `false` keeps it unmapped.
    /// Whether mapping `line` changed characters of its value. Control characters go from every value; a tab stays
    /// only in multi-line ones (NOTE, and ADR's street components), and became a space anywhere else.
    /// An escaped line break (`\n`) is one too: it decodes to a line feed, which only multi-line values keep (an
    /// outside tester's find: `N:Fam;Giv\nen` was saved as "Giv en" without a word).
    ///
    /// C1 controls (U+0080–U+009F) and the line and paragraph separators are more than one byte, and may come from
    /// a CHARSET or quoted-printable: the value is decoded again to look for them only when it may hold one
    /// (``mayHoldWideControls(_:)``). URIs (URL, a social profile's) are kept with their backslashes, so their `\n`
    /// is no line break (both found by an outside tester: changed without a word, and warned of though kept).
    private func valueLostCharacters(_ line: ContentLine) -> Bool {
        if line.value.contains(where: { $0 != 0x09 && !Validation.allows($0, multiline: false) }) { return true }
        let isURI = line.property == .url || line.property == .socialProfile
        // A PHOTO's bytes are no text.
        if line.property != .photo, mayHoldWideControls(line), decodedLostCharacters(line, isURI: isURI) {
            return true
        }
        let tab = line.value.contains(0x09)
        guard tab || (!isURI && Self.hasEscapedLineBreak(line.value)) else { return false }
        switch line.name {
        case "NOTE": return false
        case "ADR":
            return (try? values.components(line))?.dropFirst(3).contains { $0.contains("\t") || $0.contains("\n") }
                ?? false
        default: return true
        }
    }

    /// Whether the value may decode to a C1 control or a line or paragraph separator: it has a transfer encoding,
    /// a CHARSET, or 2.1's Windows-1252 reading of bytes that are not UTF-8, and a byte past ASCII or an encoding;
    /// else it is UTF-8 as written, and holds one only as those characters' bytes (C2 80–C2 9F, E2 80 A8, E2 80 A9).
    /// Decoding every line with a byte past ASCII a second time was the import's work twice for text in most
    /// languages.
    private func mayHoldWideControls(_ line: ContentLine) -> Bool {
        if line.encoding != nil { return true }
        if values.version == .v21 || line.parameter("CHARSET") != nil { return line.value.contains { $0 >= 0x80 } }
        let bytes = line.value
        var index = bytes.startIndex
        while let lead = bytes[index...].firstIndex(where: { $0 == 0xC2 || $0 == 0xE2 }) {
            let next = bytes.index(after: lead)
            guard next < bytes.endIndex else { return false }
            if bytes[lead] == 0xC2 {
                if (0x80...0x9F).contains(bytes[next]) { return true }
            } else if bytes[next] == 0x80, bytes.index(after: next) < bytes.endIndex,
                bytes[bytes.index(after: next)] == 0xA8 || bytes[bytes.index(after: next)] == 0xA9
            {
                return true
            }
            index = next
        }
        return false
    }

    /// Whether the decoded value holds a character past ASCII that its field cannot: any control character, and in
    /// a one-line field a line or paragraph separator.
    private func decodedLostCharacters(_ line: ContentLine, isURI: Bool) -> Bool {
        func lost(_ text: String, multiline: Bool) -> Bool {
            text.unicodeScalars.contains { $0.value >= 0x80 && !Validation.allows($0, multiline: multiline) }
        }
        switch line.name {
        case "NOTE":
            return (try? values.text(line)).map { lost($0, multiline: true) } ?? false
        case "ADR":
            guard let parts = try? values.components(line) else { return false }
            return parts.enumerated().contains { lost($1, multiline: $0 < 3) }
        default:
            let text = isURI ? try? values.uri(line) : try? values.text(line)
            return text.map { lost($0, multiline: false) } ?? false
        }
    }

    /// Whether a value holds `\n` or `\N` as an escape (not after an escaped backslash).
    static func hasEscapedLineBreak(_ value: some Collection<UInt8>) -> Bool {
        var escaped = false
        for byte in value {
            if escaped {
                if byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") { return true }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            }
        }
        return false
    }

    private mutating func map(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard let property = line.property else { return false }
        switch property {
        case .version, .prodID: return true
        case .uid: return try mapUID(line)
        case .formattedName: return try mapFormattedName(line)
        case .name: return try mapName(line)
        case .nickname: return try mapNickname(line)
        case .maidenName: return try mapString(line, .previousFamilyName)
        case .phoneticFirstName: return try mapString(line, .phoneticGivenName)
        case .phoneticMiddleName: return try mapString(line, .phoneticMiddleName)
        case .phoneticLastName: return try mapString(line, .phoneticFamilyName)
        case .phoneticOrganization: return try mapString(line, .phoneticOrganizationName)
        case .organization: return try mapOrganization(line)
        case .title: return try mapString(line, .jobTitle)
        case .note: return try mapNote(line)
        case .showAs, .kind: return try mapContactType(line)
        case .categories: return try mapCategories(line)
        case .birthday: return try mapBirthday(line)
        case .alternateBirthday: return try mapAlternateBirthday(line)
        case .appleDate, .anniversary: return try mapDate(line)
        case .telephone: return try mapPhone(line)
        case .email: return try mapEmail(line)
        case .address: return try mapAddress(line)
        case .url: return try mapURL(line)
        case .relatedNames, .related: return try mapRelation(line)
        case .socialProfile: return try mapSocialProfile(line)
        case .impp: return try mapInstantMessage(line)
        case .photo: return try mapPhoto(line)
        case .appleLabel, .appleAddressCountry, .appleSubLocality, .appleSubAdministrativeArea:
            return true  // decided once the group's property is mapped
        case .member: return try mapMember(line)
        case .legacyInstantMessage:
            return try mapLegacyInstantMessage(line, service: Services.instantMessageProperties[line.name] ?? "")
        }
    }

    /// The value's label: its group's X-ABLabel (which it then takes), else its TYPE parameters.
    mutating func label(for line: ContentLine, kind: LabelKind) -> String? {
        if let group = line.group, !groupLabels.isEmpty, let label = groupLabels[group] {
            usedLabelGroups.insert(group)
            return label
        }
        if let label = TypeLabels.label(forTypes: line.types, kind: kind) { return label }
        return kind == .socialProfile ? nil : TypeLabels.customLabel(line.parameters)
    }

    /// A kept line without the control characters the store holds in no value (the line is then warned of).
    private mutating func cleaned(_ text: String, line index: Int) -> String {
        var result = text
        if var cleaned = TextCleaning.withoutControlCharacters(text) {
            cleanedKeptLines.append(index)
            // A control character taken off the front (`\u{1} X-A:b`) can leave white space there, which would fold
            // the written line onto the one before it: the store refuses such a line, and the card was skipped.
            while let first = cleaned.utf8.first, first == Byte.space || first == 0x09 {
                cleaned = String(cleaned.unicodeScalars.dropFirst())
            }
            result = cleaned
        }
        // The store refuses a run of combining marks past its limit in any value: kept whole, the line had the
        // card skipped, its name and numbers with it (an outside tester's find).
        if CombiningMarks.exceedsRun(result) {
            trimmedMarkLines.append(index)
            result = CombiningMarks.trimmingRuns(result)
        }
        return result
    }

    /// Keeps a mapped line too when it says more than its value (``FullerForm``).
    mutating func keepFullerForm(_ line: ContentLine, _ parts: [String]) {
        if let form = FullerForm(line, components: parts) { fullerForms.append((form.kind, current, form.keptLine)) }
    }

    /// The same for a TEL, EMAIL or URL line mapped to `value`.
    mutating func keepFullerForm(_ line: ContentLine, value: String) {
        if let form = FullerForm(line, value: value) { fullerForms.append((form.kind, current, form.keptLine)) }
    }

    /// Whether a single-value property is seen for the first time (and marks it seen).
    /// Whether a line of `line`'s property came before (without counting this one).
    func hasSeen(_ line: ContentLine) -> Bool {
        seen & (1 << UInt64(line.property?.rawValue ?? 63)) != 0
    }

    mutating func first(_ line: ContentLine) -> Bool {
        let bit: UInt64 = 1 << UInt64(line.property?.rawValue ?? 63)
        defer { seen |= bit }
        return seen & bit == 0
    }
}
