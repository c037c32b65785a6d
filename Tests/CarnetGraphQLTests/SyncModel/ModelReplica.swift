import CarnetGraphQL

/// What a client holds, in the model test's terms: contacts as the JSON of ``SyncDocuments/contactFields``,
/// groups by name, memberships as (group, contact) pairs.
struct ReplicaState: Equatable, CustomStringConvertible {
    var contacts: [String: JSONValue] = [:]
    var groups: [String: String] = [:]
    var members: Set<[String]> = []

    var description: String {
        "\(contacts.count) contacts \(contacts.keys.sorted()), groups \(groups.sorted { $0.key < $1.key }), "
            + "members \(members.sorted { $0.joined() < $1.joined() })"
    }

    /// What differs from `expected`, record by record: what a failure prints beside the identifiers.
    func differences(from expected: ReplicaState) -> String {
        var lines: [String] = []
        for id in Set(contacts.keys).union(expected.contacts.keys).sorted() where contacts[id] != expected.contacts[id]
        {
            lines.append(
                "  contact \(id): holds \(contacts[id]?.json ?? "nothing"), server \(expected.contacts[id]?.json ?? "nothing")"
            )
        }
        for id in Set(groups.keys).union(expected.groups.keys).sorted() where groups[id] != expected.groups[id] {
            lines.append("  group \(id): holds \(groups[id] ?? "nothing"), server \(expected.groups[id] ?? "nothing")")
        }
        for pair in members.symmetricDifference(expected.members).sorted(by: { $0.joined() < $1.joined() }) {
            lines.append(
                "  member \(pair): \(members.contains(pair) ? "held, not on the server" : "on the server, not held")")
        }
        return lines.joined(separator: "\n")
    }

    /// The state without groups and memberships, for clients that do not ask for them.
    var contactsOnly: ReplicaState { ReplicaState(contacts: contacts) }

    /// Applies one event as the client contract says (Sources/CarnetStore/README.md).
    mutating func apply(event: JSONValue) {
        let contactId = event["contactId"]?.stringValue
        let groupId = event["groupId"]?.stringValue
        switch event["__typename"]?.stringValue {
        case "DropEverythingEvent":
            self = ReplicaState()
        case "AddContactEvent", "UpdateContactEvent":
            if let contactId, let contact = event["contact"] { contacts[contactId] = contact }
        case "DeleteContactEvent":
            if let contactId { removeContact(contactId) }
        case "AddGroupEvent", "UpdateGroupEvent":
            if let groupId, let name = event["group"]?["name"]?.stringValue { groups[groupId] = name }
        case "DeleteGroupEvent":
            if let groupId { removeGroup(groupId) }
        case "AddMemberToGroupEvent":
            if let groupId, let contactId { members.insert([groupId, contactId]) }
        case "RemoveMemberFromGroupEvent":
            if let groupId, let contactId { members.remove([groupId, contactId]) }
        default:
            break
        }
    }

    mutating func apply(page: JSONValue) {
        for event in page["events"]?.arrayValue ?? [] { apply(event: event) }
    }

    mutating func removeContact(_ id: String) {
        contacts[id] = nil
        members = members.filter { $0[1] != id }
    }

    mutating func removeGroup(_ id: String) {
        groups[id] = nil
        members = members.filter { $0[0] != id }
    }

    /// A client's own successful save, applied from its result and request at once (it excludes its author):
    /// records as the result gives them, then the request's deletes and memberships in their order.
    mutating func apply(ownSave result: JSONValue, operations: [JSONValue], groupChanges: Bool) {
        for contact in result["contacts"]?.arrayValue ?? [] {
            if let id = contact["id"]?.stringValue { contacts[id] = contact }
        }
        for group in result["groups"]?.arrayValue ?? [] where groupChanges {
            if let id = group["id"]?.stringValue, let name = group["name"]?.stringValue { groups[id] = name }
        }
        // What it deleted, as the result says: the members of a unified contact it deleted among them, which the
        // client may hold under their own identifiers.
        for id in result["deletedContactIds"]?.arrayValue ?? [] {
            if let id = id.stringValue { removeContact(id) }
        }
        for operation in operations {
            if let id = operation["deleteContact"]?.stringValue { removeContact(id) }
            for id in operation["mergeContacts"]?["from"]?.arrayValue ?? [] {
                if let id = id.stringValue { removeContact(id) }
            }
            if let id = operation["deleteGroup"]?.stringValue { removeGroup(id) }
            guard groupChanges else { continue }
            if let add = operation["addMember"], let group = add["groupId"]?.stringValue,
                let contact = add["contactId"]?.stringValue
            {
                members.insert([group, contact])
            }
            if let remove = operation["removeMember"], let group = remove["groupId"]?.stringValue,
                let contact = remove["contactId"]?.stringValue
            {
                members.remove([group, contact])
            }
        }
    }
}

/// A client that pulls `changeHistory` pages.
struct PullClient {
    var name: String
    var author: String
    var excludeOwn: Bool
    var groupChanges: Bool
    var pageSize: Int
    /// The book it follows (0: the default one, through the root fields).
    var book = 0
    /// Whether it syncs as the book's owner `other` (book 2, its default, through the root fields).
    var asOther = false
    /// Whether it syncs unified contacts (`unifyResults`) or individual ones.
    var unify = true
    var token: String?
    var state = ReplicaState()

    var variables: [String: JSONValue] {
        [
            "since": token.map(JSONValue.string) ?? .null, "groups": .bool(groupChanges),
            "excluded": .array(excludeOwn ? [.string(author)] : []), "first": .int(pageSize),
            "unify": .bool(unify),
        ]
    }
}
