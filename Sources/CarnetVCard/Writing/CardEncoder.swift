import CarnetStore

/// Writes one contact as a card. Reads only the keys the contact has available, so a contact fetched with a
/// few keys exports those.
struct CardEncoder {
    let contact: Contact
    let version: VCardVersion
    var out: LineWriter
    /// Groups the unmapped properties use (uppercased), which the encoder's own `itemN` groups must avoid.
    let reservedGroups: Set<String>
    var groupCounter = 0
    /// The kept lines that are a value's fuller form (``FullerForm``), by index among the kept lines.
    let fullerForms: [(index: Int, form: FullerForm)]
    /// The unused fuller forms' positions in ``fullerForms`` by kind and value, in order: a value finds its form in
    /// one lookup (a search compared every value with every kept line).
    var unusedFullerForms: [FullerForm.Key: ArraySlice<Int>] = [:]
    /// The fuller forms whose value the card writes, with their extras.
    var usedFullerForms: Set<Int> = []

    init(contact: Contact, version: VCardVersion, unmappedProperties: [String], out: LineWriter) {
        self.contact = contact
        self.version = version
        self.out = out
        var groups: Set<String> = []
        var forms: [(index: Int, form: FullerForm)] = []
        for (index, property) in unmappedProperties.enumerated() {
            if let form = FullerForm(kept: property) { forms.append((index, form)) }
            let head = property.utf8.prefix { $0 != Byte.colon && $0 != Byte.semicolon }
            if let dot = head.firstIndex(of: Byte.dot) {
                groups.insert(String(decoding: head[..<dot], as: UTF8.self).uppercased())
            }
        }
        self.reservedGroups = groups
        self.fullerForms = forms
        for (position, entry) in forms.enumerated() { unusedFullerForms[entry.form.key, default: []].append(position) }
    }

    mutating func encode(categories: [String], unmappedProperties: [String], uid: String?) {
        out.fold("BEGIN:VCARD")
        out.property("VERSION", value: version.rawValue)
        out.property("PRODID", value: "-//Carnet//Carnet vCard//EN")
        if version == .v40, value(.contactType, \.contactType, .person) == .organization {
            out.property("KIND", value: "org")
        }
        encodeNames()
        encodeOrganization()
        encodePhones()
        encodeEmails()
        encodeAddresses()
        encodeURLs()
        encodeDates()
        encodeRelations()
        encodeSocialProfiles()
        encodeInstantMessages()
        encodeBirthdays()
        let note = string(.note)
        if !note.isEmpty { out.property("NOTE", value: Escaping.text(note)) }
        encodePhoto()
        let groups = categories.filter { !$0.isEmpty }
        if !groups.isEmpty { out.property("CATEGORIES", value: groups.map(Escaping.text).joined(separator: ",")) }
        out.property("UID", value: uid.map(Escaping.text) ?? contact.identifier)
        let staleForms = staleFullerForms()
        for (index, property) in unmappedProperties.enumerated()
        where !usedFullerForms.contains(index) && !staleForms.contains(index) {
            writeUnmapped(property)
        }
        out.fold("END:VCARD")
    }

    /// A kept property, written as read; line breaks (which an unfolded line cannot hold) are dropped, and so
    /// are lines that would end or restart the card.
    private mutating func writeUnmapped(_ property: String) {
        var line = property
        if line.utf8.contains(where: { $0 == Byte.cr || $0 == Byte.lf }) {
            line.removeAll { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        }
        guard !line.isEmpty, KeptVCardLine.isWellFormed(line), !KeptVCardLine.framesCard(line) else { return }
        // A line of a property the reader maps is left out when it would lose the card or change its kind.
        if Property.byName[KeptVCardLine.name(of: line)] != nil,
            VCardReader.keptLineProblem(line, versions: [version.rawValue]) != nil
        {
            return
        }
        out.fold(line)
    }

    /// The first fuller form not yet used whose value is `base`, marked used.
    mutating func takeFullerForm(_ kind: FullerForm.Kind, base: [String]) -> FullerForm? {
        let key = FullerForm.Key(kind: kind, base: base)
        guard let position = unusedFullerForms[key]?.popFirst() else { return nil }
        let entry = fullerForms[position]
        usedFullerForms.insert(entry.index)
        return entry.form
    }

    /// The fuller forms of values (ADR, TEL, EMAIL, URL) no value of the contact matches any more: they describe
    /// a value since changed (not a blank one, which never had a value), and are left out (written back, one would come back as a second value on the next
    /// import). One the store could not have held as a value, or of a key the contact was not read with, is
    /// written as kept. An N that matches no name is written as kept: a second N is kept again on import (4.0's
    /// ALTID alternatives are such N lines), so it cannot come back as a value.
    private func staleFullerForms() -> Set<Int> {
        var stale: Set<Int> = []
        for (index, form) in fullerForms where !usedFullerForms.contains(index) {
            // A blank value's form (`ADR;LABEL=x:;;;;;;`) was kept because no value came of it: none ever matches
            // it, and it is written as kept, or its own export's import would lose it.
            if form.base.allSatisfy(\.isEmpty) { continue }
            let (key, count): (ContactKey, Int)
            switch form.kind {
            case .name: continue
            case .address: (key, count) = (.postalAddresses, value(.postalAddresses, \.postalAddresses, []).count)
            case .phone: (key, count) = (.phoneNumbers, value(.phoneNumbers, \.phoneNumbers, []).count)
            case .email: (key, count) = (.emailAddresses, value(.emailAddresses, \.emailAddresses, []).count)
            case .url: (key, count) = (.urlAddresses, value(.urlAddresses, \.urlAddresses, []).count)
            }
            if contact.isKeyAvailable(key), form.fitsStore(valueCount: count) { stale.insert(index) }
        }
        return stale
    }

    /// The key's value, or `fallback` when the contact does not have the key.
    func value<V>(_ key: ContactKey, _ path: KeyPath<Contact, V>, _ fallback: V) -> V {
        contact.isKeyAvailable(key) ? contact[keyPath: path] : fallback
    }

    func string(_ key: ContactKey) -> String { contact.isKeyAvailable(key) ? contact.string(key) : "" }

    /// A fresh `itemN` group.
    mutating func nextGroup() -> String {
        repeat { groupCounter += 1 } while reservedGroups.contains("ITEM\(groupCounter)")
        return "item\(groupCounter)"
    }
}
