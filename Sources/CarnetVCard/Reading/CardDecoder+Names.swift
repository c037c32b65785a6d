import CarnetStore

/// Names, organization, note, kind, UID and categories.
extension CardDecoder {
    /// A string key's value so far; empty for none.
    subscript(key: ContactKey) -> String {
        get { strings[key.ordinal] }
        set { strings[key.ordinal] = newValue }
    }

    /// N: family; given; additional; prefix; suffix.
    mutating func mapName(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard !hasSeen(line) else { return false }
        let parts = try values.components(line)
        // An empty value is no value: it takes no line's place, so a later line with one is the one mapped (and
        // the export, which writes only that one, reads back the same).
        guard parts.contains(where: { !TextCleaning.singleLine($0).isEmpty }) else { return true }
        _ = first(line)
        let keys: [ContactKey] = [.familyName, .givenName, .middleName, .namePrefix, .nameSuffix]
        for (key, part) in zip(keys, FullerForm.nameFields(parts)) {
            self[key] = part
            source(key)
        }
        keepFullerForm(line, parts)
        return true
    }

    mutating func mapFormattedName(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard !hasSeen(line) else { return false }
        let text = TextCleaning.singleLine(try values.text(line))
        guard !text.isEmpty else { return true }
        _ = first(line)
        formattedName = text
        formattedNameLine = current
        return true
    }

    /// NICKNAME is a list; its items (and those of repeated NICKNAME lines) join with commas.
    mutating func mapNickname(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let items = try values.list(line).map(TextCleaning.singleLine).filter { !$0.isEmpty }
        guard !items.isEmpty else { return true }
        let existing = self[.nickname].isEmpty ? [] : [self[.nickname]]
        self[.nickname] = (existing + items).joined(separator: ", ")
        source(.nickname)
        return true
    }

    /// ORG: organization; department; more units, which join the department.
    mutating func mapOrganization(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard !hasSeen(line) else { return false }
        let parts = try values.components(line).map(TextCleaning.singleLine)
        guard parts.contains(where: { !$0.isEmpty }) else { return true }
        _ = first(line)
        self[.organizationName] = parts.first ?? ""
        self[.departmentName] = parts.dropFirst().filter { !$0.isEmpty }.joined(separator: ", ")
        source(.organizationName)
        source(.departmentName)
        return true
    }

    /// A single-line string key; a repeat of the property is kept unmapped.
    mutating func mapString(_ line: ContentLine, _ key: ContactKey) throws(VCardIssue) -> Bool {
        guard !hasSeen(line) else { return false }
        let text = TextCleaning.singleLine(try values.text(line))
        guard !text.isEmpty else { return true }
        _ = first(line)
        self[key] = text
        source(key)
        return true
    }

    /// NOTE may repeat (4.0); the notes join with a blank line.
    mutating func mapNote(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let text = TextCleaning.multiLine(try values.text(line))
        guard !text.isEmpty else { return true }
        self[.note] = self[.note].isEmpty ? text : self[.note] + "\n\n" + text
        source(.note)
        return true
    }

    /// Apple's X-ABShowAs:COMPANY, 4.0's KIND:org, and a group card's KIND:group (or Apple's
    /// X-ADDRESSBOOKSERVER-KIND:group). KIND location has no Carnet meaning: kept.
    mutating func mapContactType(_ line: ContentLine) throws(VCardIssue) -> Bool {
        switch TextCleaning.singleLine(try values.text(line)).lowercased() {
        case "company", "org", "organization": contactType = .organization
        case "person", "individual": break
        case "group" where line.name != "X-ABSHOWAS": isGroup = true
        default: return false
        }
        return true
    }

    /// The first UID is the card's; another is said and not kept: the card's contact keeps one UID, which its
    /// export writes (it was dropped without a word, an outside tester's find).
    mutating func mapUID(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard first(line) else {
            extraUIDLines.append(current)
            return true
        }
        let text = TextCleaning.singleLine(try values.text(line))
        if !text.isEmpty { uid = text }
        return true
    }

    /// CATEGORIES become group names: trimmed, without empty or repeated names. A line with a name longer than a
    /// group's may be is kept whole as a vCard property: the store refused the group, and the card with it.
    mutating func mapCategories(_ line: ContentLine) throws(VCardIssue) -> Bool {
        var names = categoryNames
        var added: [String] = []
        for item in try values.list(line) {
            let name = TextCleaning.singleLine(item)
            if name.utf8.count > StoreLimits.singleLineBytes {
                longCategoryNames.append(current)
                return false
            }
            guard !name.isEmpty, names.insert(ExactText(name)).inserted else { continue }
            added.append(name)
            // Kept whole as a vCard property rather than cut: nothing of the card is lost.
            if categories.count + added.count > StoreLimits.categoriesPerCard {
                if overlongCategories == nil { overlongCategories = current }
                return false
            }
        }
        categoryNames = names
        categories += added
        // Only a line read as groups: one kept aside (a name too long) says nothing of them.
        hasCategories = true
        return true
    }

    /// A group card's MEMBER (or Apple's X-ADDRESSBOOKSERVER-MEMBER): `urn:uuid:<uid>`, or any other URI, which
    /// names the member card's UID as written. On a card that is not a group the line is kept.
    mutating func mapMember(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let text = TextCleaning.singleLine(try values.text(line))
        let uid = UIDReference.named(text)
        if !uid.isEmpty {
            memberUIDs.append(uid)
            memberLines.append(current)
        }
        return true
    }

    /// A card without N (common in 4.0) still has a name: its FN split into prefix, given, middle and family
    /// name and suffix as Apple Contacts splits it (``NameSplitting``), or the organization name for an
    /// organization. An FN that only repeats the organization or nickname adds nothing.
    mutating func applyFormattedName() {
        guard let name = formattedName, !name.isEmpty else { return }
        let nameKeys: [ContactKey] = [.namePrefix, .givenName, .middleName, .familyName, .nameSuffix]
        guard nameKeys.allSatisfy({ self[$0].isEmpty }) else { return }
        if name == self[.organizationName] || name == self[.nickname] { return }
        if contactType == .organization {
            if self[.organizationName].isEmpty {
                self[.organizationName] = name
                if let line = formattedNameLine { source(.organizationName, line: line) }
            }
            return
        }
        let parts = NameSplitting.split(name)
        let keys: [ContactKey] = [.namePrefix, .givenName, .middleName, .familyName, .nameSuffix]
        for (key, part) in zip(keys, [parts.prefix, parts.given, parts.middle, parts.family, parts.suffix]) {
            self[key] = part
            if let line = formattedNameLine { source(key, line: line) }
        }
    }
}
