import CarnetStore
import Foundation

/// Turns a coerced `SaveRequestInput` into a store ``SaveRequest``.
struct SaveInput {
    let request: SaveRequest
    /// Operation by operation, which kind of record it saved (for `SaveResult`).
    let kinds: [Kind]

    enum Kind {
        case contact, deletedContact, group, deletedGroup
        /// A merge: the survivor is saved, the absorbed contacts deleted.
        case merged(absorbed: [String])
        /// A link operation: the result shows the unified contact the identifier names (a member's or its own).
        case unified
    }

    init(_ input: [String: JSONValue], author: String?) throws(FieldError) {
        var request = SaveRequest(transactionAuthor: author)
        var kinds: [Kind] = []
        for (index, item) in (input["operations"]?.arrayValue ?? []).enumerated() {
            guard let operation = item.objectValue, operation.count == 1, let (name, value) = operation.first,
                // An operation's value is an input object, or an ID (deletes, unlink) or list of IDs (link).
                let fields = value.objectValue ?? (value.stringValue != nil || value.arrayValue != nil ? [:] : nil)
            else { throw .badUserInput("Operation \(index) must set exactly one field.") }
            let path = "operations[\(index)].\(name)"
            switch name {
            case "addContact":
                var contact = Contact(identifier: fields["id"]?.stringValue)
                try Self.apply(fields, to: &contact, path: path)
                request.add(contact, toContainerWithIdentifier: fields["containerId"]?.stringValue)
                kinds.append(.contact)
            case "updateContact":
                var contact = Contact(updating: fields["id"]?.stringValue ?? "")
                try Self.apply(fields, to: &contact, path: path)
                request.update(contact, baseRevision: try Self.revision(fields["baseRevision"], path: path))
                kinds.append(.contact)
            case "deleteContact":
                request.delete(contactWithIdentifier: value.stringValue ?? "")
                kinds.append(.deletedContact)
            case "addGroup":
                let group = Group(
                    identifier: fields["id"]?.stringValue ?? Contact.makeIdentifier(),
                    name: fields["name"]?.stringValue ?? "")
                request.add(group, toContainerWithIdentifier: fields["containerId"]?.stringValue)
                kinds.append(.group)
            case "updateGroup":
                request.update(
                    Group(identifier: fields["id"]?.stringValue ?? "", name: fields["name"]?.stringValue ?? ""),
                    baseRevision: try Self.revision(fields["baseRevision"], path: path))
                kinds.append(.group)
            case "deleteGroup":
                request.delete(groupWithIdentifier: value.stringValue ?? "")
                kinds.append(.deletedGroup)
            case "addMember", "removeMember":
                let contact = fields["contactId"]?.stringValue ?? ""
                let group = fields["groupId"]?.stringValue ?? ""
                if name == "addMember" {
                    request.addMember(contact, toGroup: group)
                } else {
                    request.removeMember(contact, fromGroup: group)
                }
                kinds.append(.group)
            case "mergeContacts":
                let absorbed = fields["from"]?.arrayValue?.compactMap(\.stringValue) ?? []
                request.merge(contactsWithIdentifiers: absorbed, into: fields["into"]?.stringValue ?? "")
                kinds.append(.merged(absorbed: absorbed))
            case "linkContacts":
                request.link(contactsWithIdentifiers: value.arrayValue?.compactMap(\.stringValue) ?? [])
                kinds.append(.unified)
            case "unlinkContact":
                request.unlink(contactWithIdentifier: value.stringValue ?? "")
                kinds.append(.contact)
            case "setPreferredForName", "setPreferredForImage":
                let identifier = value.stringValue ?? ""
                if name == "setPreferredForName" {
                    request.setPreferredForName(contactWithIdentifier: identifier)
                } else {
                    request.setPreferredForImage(contactWithIdentifier: identifier)
                }
                kinds.append(.unified)
            default:
                throw .badUserInput("Unknown operation \(name).")
            }
        }
        self.request = request
        self.kinds = kinds
    }

    private static func revision(_ value: JSONValue?, path: String) throws(FieldError) -> Int64? {
        guard let text = value?.stringValue else { return nil }
        guard let revision = Int64(text), revision >= 0 else {
            throw .badUserInput("\(path).baseRevision is not a revision this store gave out.")
        }
        return revision
    }

    /// Sets every key the input gives; `null` clears it.
    private static func apply(_ fields: [String: JSONValue], to contact: inout Contact, path: String) throws(FieldError)
    {
        for (name, value) in fields {
            switch name {
            case "id", "containerId", "baseRevision": continue
            case "contactType": contact.contactType = value.stringValue == "ORGANIZATION" ? .organization : .person
            case "birthday": contact.birthday = date(value)
            case "nonGregorianBirthday": contact.nonGregorianBirthday = date(value)
            case "imageData": contact.imageData = try data(value, "\(path).imageData")
            case "thumbnailImageData": contact.thumbnailImageData = try data(value, "\(path).thumbnailImageData")
            case "phoneNumbers": contact.phoneNumbers = labeled(value) { $0.stringValue }
            case "emailAddresses": contact.emailAddresses = labeled(value) { $0.stringValue }
            case "urlAddresses": contact.urlAddresses = labeled(value) { $0.stringValue }
            case "vCardProperties":
                contact.vCardProperties = (value.arrayValue ?? []).compactMap(\.stringValue).map {
                    LabeledValue(value: $0)
                }
            case "postalAddresses":
                contact.postalAddresses = labeled(value) { v in
                    v.objectValue.map { o in
                        PostalAddress(
                            street: o["street"]?.stringValue ?? "", subLocality: o["subLocality"]?.stringValue ?? "",
                            city: o["city"]?.stringValue ?? "",
                            subAdministrativeArea: o["subAdministrativeArea"]?.stringValue ?? "",
                            state: o["state"]?.stringValue ?? "", postalCode: o["postalCode"]?.stringValue ?? "",
                            country: o["country"]?.stringValue ?? "",
                            isoCountryCode: o["isoCountryCode"]?.stringValue ?? "")
                    }
                }
            case "dates": contact.dates = labeled(value) { date($0) }
            case "contactRelations":
                contact.contactRelations = labeled(value) {
                    $0.objectValue?["name"]?.stringValue.map(ContactRelation.init(name:))
                }
            case "socialProfiles":
                contact.socialProfiles = labeled(value) { v in
                    v.objectValue.map { o in
                        SocialProfile(
                            urlString: o["urlString"]?.stringValue ?? "", username: o["username"]?.stringValue ?? "",
                            userIdentifier: o["userIdentifier"]?.stringValue ?? "",
                            service: o["service"]?.stringValue ?? "")
                    }
                }
            case "instantMessageAddresses":
                contact.instantMessageAddresses = labeled(value) { v in
                    v.objectValue.map { o in
                        InstantMessageAddress(
                            username: o["username"]?.stringValue ?? "", service: o["service"]?.stringValue ?? "")
                    }
                }
            default:
                guard let key = ContactKey(rawValue: name), ContactKey.stringKeys.contains(key) else { continue }
                contact.setString(key, value.stringValue ?? "")
            }
        }
    }

    private static func date(_ value: JSONValue) -> ContactDate? {
        guard let o = value.objectValue, case .int(let month)? = o["month"], case .int(let day)? = o["day"] else {
            return nil
        }
        func int(_ name: String) -> Int? { if case .int(let v)? = o[name] { v } else { nil } }
        return ContactDate(
            calendar: o["calendar"]?.stringValue ?? ContactDate.gregorian, era: int("era"), year: int("year"),
            month: month,
            day: day, isLeapMonth: o["isLeapMonth"] == .bool(true))
    }

    private static func data(_ value: JSONValue, _ path: String) throws(FieldError) -> Data? {
        guard let text = value.stringValue else { return nil }
        guard let data = Data(base64Encoded: text) else { throw .badUserInput("\(path) is not valid base64.") }
        return data
    }

    private static func labeled<V>(_ value: JSONValue, _ decode: (JSONValue) -> V?) -> [LabeledValue<V>] {
        (value.arrayValue ?? []).compactMap { item in
            guard let o = item.objectValue, let decoded = o["value"].flatMap(decode) else { return nil }
            let label = o["label"]?.stringValue.map { ContactLabel.wellKnown[$0] ?? $0 }
            return LabeledValue(identifier: o["identifier"]?.stringValue, label: label, value: decoded)
        }
    }
}
