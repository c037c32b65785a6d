import CarnetStore
import CarnetVCard
import GraphQL

/// The reference's resolvers: for each field that needs one, the plainest call into the store.
enum ReferenceResolvers {
    typealias Record = ReferenceRecords.Record

    static func resolver(type: String, field: String) -> GraphQLFieldResolve? {
        switch (type, field) {
        case ("Query", _): query(field)
        case ("Contact", "displayName"): { source, args, _, _ in displayName(source, args) }
        case ("Contact", "vCard"):
            { source, args, context, _ in
                let contact = (source as! Record)["_contact"] as! Contact
                let groups = try await groups(of: contact, store(context))
                let version: VCardWriter.Version = args["version"].string == "V4_0" ? .v4 : .v3
                return VCardExporter.card(contact, groups: groups, writer: VCardWriter(version: version))
            }
        case ("Contact", "groups"):
            { source, _, context, _ in
                try await groups(of: (source as! Record)["_contact"] as! Contact, store(context))
                    .map(ReferenceRecords.group)
            }
        case ("Contact", "container"):
            { source, _, context, _ in
                let contact = (source as! Record)["_contact"] as! Contact
                return try await store(context).containers(withIdentifiers: [contact.containerIdentifier ?? ""]).first
                    .map(ReferenceRecords.container)
            }
        case ("Contact", "linkedContacts"):
            { source, _, context, _ in
                let contact = (source as! Record)["_contact"] as! Contact
                let store = store(context)
                var members = contact.linkedContactIdentifiers
                if !contact.isUnified {
                    members = try await store.linkGroups(containing: [contact.identifier]).first?.members ?? []
                }
                return try await store.contacts(withIdentifiers: members, keysToFetch: .all)
                    .map(ReferenceRecords.contact)
            }
        case ("Group", "container"):
            { source, _, context, _ in
                ReferenceRecords.container(
                    try await store(context).container(ofGroup: (source as! Record)["id"] as! String))
            }
        case ("Group", "members"):
            { source, args, context, _ in
                let id = (source as! Record)["id"] as! String
                let members = try await store(context).members(
                    ofGroups: [id], keysToFetch: .all, sortOrder: sortOrder(args["sortOrder"]),
                    limit: args["first"].int ?? 100)
                return members[id, default: []].map(ReferenceRecords.contact)
            }
        case ("Group", "memberCount"):
            { source, _, context, _ in
                let id = (source as! Record)["id"] as! String
                return try await store(context).memberCounts(ofGroups: [id])[id] ?? 0
            }
        default: nil
        }
    }

    static func store(_ context: any Sendable) -> any ContactStore { (context as! ReferenceSchema.Context).store }

    /// A contact's groups by name; a unified contact's are its members' groups.
    static func groups(of contact: Contact, _ store: any ContactStore) async throws -> [Group] {
        let ids = contact.isUnified ? contact.linkedContactIdentifiers : [contact.identifier]
        let byContact = try await store.groups(ofContacts: ids)
        var seen = Set<String>()
        return ids.flatMap { byContact[$0] ?? [] }.filter { seen.insert($0.identifier).inserted }
            .sorted { $0.name < $1.name }
    }

    static func query(_ field: String) -> GraphQLFieldResolve? {
        switch field {
        case "contact":
            { _, args, context, _ in
                try await store(context).contacts(
                    withIdentifiers: [args["id"].string ?? ""], keysToFetch: .all, unify: args["unify"].bool ?? true
                ).first.map(ReferenceRecords.contact)
            }
        case "node":
            { _, args, context, _ in
                let id = args["id"].string ?? ""
                let store = store(context)
                if let contact = try await store.contacts(
                    withIdentifiers: [id], keysToFetch: .all, unify: args["unify"].bool ?? true
                ).first {
                    return ReferenceRecords.contact(contact)
                }
                if let group = try await store.groups(withIdentifiers: [id]).first {
                    return ReferenceRecords.group(group)
                }
                return try await store.containers(withIdentifiers: [id]).first.map(ReferenceRecords.container)
            }
        case "contacts": { _, args, context, _ in try await contacts(args, store(context)) }
        case "group":
            { _, args, context, _ in
                try await store(context).groups(withIdentifiers: [args["id"].string ?? ""]).first.map(
                    ReferenceRecords.group)
            }
        case "groups":
            { _, args, context, _ in
                try await store(context).groups(inContainer: args["containerId"].string).map(ReferenceRecords.group)
            }
        case "container":
            { _, args, context, _ in
                try await store(context).containers(withIdentifiers: [args["id"].string ?? ""]).first.map(
                    ReferenceRecords.container)
            }
        case "containers": { _, _, context, _ in try await store(context).containers().map(ReferenceRecords.container) }
        case "defaultContainer":
            { _, _, context, _ in ReferenceRecords.container(try await store(context).defaultContainer()) }
        case "currentHistoryToken": { _, _, context, _ in try await store(context).currentHistoryToken() }
        case "changeHistory": { _, args, context, _ in try await history(args, store(context)) }
        case "changeHistoryRetention":
            { _, _, context, _ in
                let store = store(context)
                let seconds = store.configuration.historyRetentionSeconds
                return ["retentionSeconds": seconds, "oldestValidToken": try await store.oldestValidHistoryToken()]
                    as Record
            }
        default: nil
        }
    }

    static func sortOrder(_ value: Map) -> ContactSortOrder {
        switch value.string {
        case "NONE": .none
        case "GIVEN_NAME": .givenName
        case "FAMILY_NAME": .familyName
        default: .userDefault
        }
    }

    static func contacts(_ args: Map, _ store: any ContactStore) async throws -> Record {
        let filter = args["filter"]
        let predicate = ContactPredicate(
            matchingName: filter["name"].string, matchingEmailAddress: filter["email"].string,
            matchingPhoneNumber: filter["phone"].string, identifiers: filter["ids"].array?.compactMap(\.string),
            groupIdentifier: filter["groupId"].string, containerIdentifier: filter["containerId"].string)
        let page: PageRequest =
            args["last"].int.map { .last($0, before: args["before"].string) }
            ?? .first(args["first"].int ?? 100, after: args["after"].string)
        var request = ContactFetchRequest(
            predicate: predicate, keysToFetch: .all, sortOrder: sortOrder(args["sortOrder"]), page: page,
            includeTotalCount: true)
        request.unifyResults = args["unify"].bool ?? true
        let result = try await store.contacts(request)
        let nodes = result.contacts.map(ReferenceRecords.contact)
        let cursors = result.cursors
        var pageInfo: Record = ["hasNextPage": result.hasNextPage, "hasPreviousPage": result.hasPreviousPage]
        if let first = cursors.first { pageInfo["startCursor"] = first }
        if let last = cursors.last { pageInfo["endCursor"] = last }
        return [
            "edges": zip(nodes, cursors).map { node, cursor -> Record in ["node": node, "cursor": cursor] },
            "nodes": nodes, "pageInfo": pageInfo, "totalCount": result.totalCount ?? 0,
        ]
    }

    static func history(_ args: Map, _ store: any ContactStore) async throws -> Record {
        var request = ChangeHistoryFetchRequest(
            startingToken: args["since"].string, includeGroupChanges: args["includeGroupChanges"].bool ?? false,
            excludedAuthors: Set(args["excludedAuthors"].array?.compactMap(\.string) ?? []), contactKeys: .all,
            limit: args["first"].int ?? 1000)
        request.unifyResults = args["unifyResults"].bool ?? true
        let page = try await store.changeHistory(request)
        let events: [Record] = page.events.map { event in
            let names: [ChangeEventKind: String] = [
                .dropEverything: "DropEverythingEvent", .addContact: "AddContactEvent",
                .updateContact: "UpdateContactEvent",
                .deleteContact: "DeleteContactEvent", .addGroup: "AddGroupEvent", .updateGroup: "UpdateGroupEvent",
                .deleteGroup: "DeleteGroupEvent", .addMemberToGroup: "AddMemberToGroupEvent",
                .removeMemberFromGroup: "RemoveMemberFromGroupEvent",
            ]
            var record: Record = ["__typename": names[event.kind]!, "changedKeys": event.changedKeys.map(\.rawValue)]
            if let author = event.author { record["author"] = author }
            if let id = event.contactIdentifier { record["contactId"] = id }
            if let id = event.groupIdentifier { record["groupId"] = id }
            if let id = event.containerIdentifier { record["containerId"] = id }
            if let contact = event.contact { record["contact"] = ReferenceRecords.contact(contact) }
            if let group = event.group { record["group"] = ReferenceRecords.group(group) }
            if let reason = event.dropReason {
                // The schema's enum spelling of the store's reason: noToken → NO_TOKEN.
                record["reason"] = reason.rawValue.reduce(into: "") { name, character in
                    if character.isUppercase { name += "_" }
                    name += character.uppercased()
                }
            }
            return record
        }
        return ["events": events, "token": page.token, "hasMore": page.hasMore]
    }

    static func displayName(_ source: any Sendable, _ args: Map) -> String {
        let c = (source as! Record)["_contact"] as! Contact
        let familyFirst = args["order"].string == "FAMILY_NAME_FIRST"
        let names =
            familyFirst ? [c.familyName, c.givenName, c.middleName] : [c.givenName, c.middleName, c.familyName]
        let personal = names.filter { !$0.isEmpty }
        if !personal.isEmpty {
            return ([c.namePrefix] + personal + [c.nameSuffix]).filter { !$0.isEmpty }.joined(separator: " ")
        }
        return c.organizationName.isEmpty ? c.nickname : c.organizationName
    }
}
