import CarnetStore

extension Executor {
    static func eventTypeName(_ kind: ChangeEventKind) -> String {
        switch kind {
        case .dropEverything: "DropEverythingEvent"
        case .addContact: "AddContactEvent"
        case .updateContact: "UpdateContactEvent"
        case .deleteContact: "DeleteContactEvent"
        case .addGroup: "AddGroupEvent"
        case .updateGroup: "UpdateGroupEvent"
        case .deleteGroup: "DeleteGroupEvent"
        case .addMemberToGroup: "AddMemberToGroupEvent"
        case .removeMemberFromGroup: "RemoveMemberFromGroupEvent"
        }
    }

    func writeHistoryPage(_ page: ChangeHistoryPage, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch HistoryPageField(rawValue: plan.code) {
            case .events?:
                // Each kind's fields, looked up once per page rather than by type name for every event.
                let byKind = ChangeEventKind.allCases.map { plan.selection?.fields(for: Self.eventTypeName($0)) ?? [] }
                // Through a buffer, by index: an event read from an array in a closure is copied, a retain per
                // reference in it and in its contact, for every event of a page; a buffer's element is borrowed.
                let written = page.events.withUnsafeBufferPointer { events in
                    field(plan) {
                        try admitNodes(events.count)
                        return list(count: events.count, plan) { index in
                            writeEvent(events[index], byKind[events[index].kind.rawValue])
                        }
                    }
                }
                guard written else { return false }
            case .token?: leaf(plan) { $0.string(page.token) }
            case .hasMore?: leaf(plan) { $0.bool(page.hasMore) }
            case nil: guard otherField(plan, "ChangeHistoryPage") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    private func writeEvent(_ event: ChangeHistoryEvent, _ fields: [FieldPlan]) -> Bool {
        let typeName = Self.eventTypeName(event.kind)
        writer.beginObject()
        for plan in fields {
            switch EventField(rawValue: plan.code) {
            case .author?: leaf(plan) { writer in event.author.map { writer.string($0) } ?? writer.null() }
            case .contactId?: leaf(plan) { $0.string(event.contactIdentifier ?? "") }
            case .containerId?: leaf(plan) { $0.string(event.containerIdentifier ?? "") }
            case .groupId?: leaf(plan) { $0.string(event.groupIdentifier ?? "") }
            case .changedKeys?:
                leaf(plan) { writer in
                    writer.beginArray()
                    for key in event.changedKeys {
                        writer.comma()
                        writer.string(key.rawValue)
                    }
                    writer.endArray()
                }
            case .contact?:
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard
                    field(
                        plan,
                        {
                            guard let contact = event.contact else {
                                throw FieldError(message: "The contact is gone.", code: .internalServerError)
                            }
                            return writeContact(contact, sub)
                        })
                else { return false }
            case .group?:
                let sub = plan.selection?.fields(for: "Group") ?? []
                guard
                    field(
                        plan,
                        {
                            guard let group = event.group else {
                                throw FieldError(message: "The group is gone.", code: .internalServerError)
                            }
                            return writeGroup(group, sub)
                        })
                else { return false }
            case .reason?: leaf(plan) { $0.string(Self.reasonName(event.dropReason ?? .noToken)) }
            case nil: guard otherField(plan, typeName) else { return false }
            }
        }
        writer.endObject()
        return true
    }

    static func reasonName(_ reason: DropEverythingReason) -> String {
        switch reason {
        case .noToken: "NO_TOKEN"
        case .malformedToken: "MALFORMED_TOKEN"
        case .otherStore: "OTHER_STORE"
        case .expiredToken: "EXPIRED_TOKEN"
        case .tokenAhead: "TOKEN_AHEAD"
        }
    }

    func writeRetention(seconds: Int, oldest: String, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch RetentionField(rawValue: plan.code) {
            case .retentionSeconds?: leaf(plan) { $0.int(seconds) }
            case .oldestValidToken?: leaf(plan) { $0.string(oldest) }
            case nil: guard otherField(plan, "ChangeHistoryRetention") else { return false }
            }
        }
        writer.endObject()
        return true
    }
}
