import CarnetStore

extension Executor {
    /// Resolves a root field of `Mutation` (run one at a time, in order).
    func mutationField(_ plan: FieldPlan) async throws -> Bool {
        if let code = MutationField(rawValue: plan.code), code != .save, code != .importVCards {
            return try await managementField(code, plan)
        }
        guard let bookID = args(plan).string("addressBookId") else {
            // A token may write to some of its books and not to the one its root fields mean.
            if let viewer = context.viewer, !viewer.defaultBookWritable { throw Self.readOnlyBook }
            return try await mutationOnBook(plan, bookID: context.viewer?.defaultBookID)
        }
        let viewer = try requireViewer()
        // A book without a grant gets the answer an unknown id gets.
        guard let visible = try await viewer.book(id: bookID) else {
            throw StoreError.noSuchBook(bookID)
        }
        guard visible.access.canWrite else { throw Self.readOnlyBook }
        return try await inBook(visible, viewer) { try await mutationOnBook(plan, bookID: bookID) }
    }

    static let readOnlyBook = FieldError(message: "This address book is shared read-only.", code: .forbidden)

    /// A mutation on the book in ``store`` (`bookID` on a service of many books).
    private func mutationOnBook(_ plan: FieldPlan, bookID: String?) async throws -> Bool {
        if MutationField(rawValue: plan.code) == .importVCards { return try await importVCards(plan, bookID: bookID) }
        guard MutationField(rawValue: plan.code) == .save else {
            throw FieldError(message: "Unknown mutation \(plan.name).", code: .badUserInput)
        }
        let input = args(plan)["request"]?.objectValue ?? [:]
        let author: String?
        do {
            author = try context.authorizeAuthor(input["transactionAuthor"]?.stringValue)
        } catch {
            throw FieldError(message: error.message, code: .forbidden)
        }
        let save = try SaveInput(input, author: author)
        var request = save.request
        request.deadline = budget.deadline
        let result = try await store.execute(request)
        (budget.pastCommit, committedSave, committedMutation) = (true, result, true)

        var contactIDs: [String] = []
        var unifiedIDs: [String] = []
        var groupIDs: [String] = []
        var deletedContacts: [String] = []
        var deletedGroups: [String] = []
        for (kind, id) in zip(save.kinds, result.recordIdentifiers) {
            switch kind {
            case .contact: contactIDs.append(id)
            case .group: groupIDs.append(id)
            case .deletedContact: deletedContacts.append(id)
            case .deletedGroup: deletedGroups.append(id)
            case .merged(let absorbed):
                contactIDs.append(id)
                deletedContacts += absorbed
            case .unified: unifiedIDs.append(id)
            }
        }
        deletedContacts += result.deletedMembers + result.endedUnifiedContacts
        // Changed by the deletes, named by no operation: listed after the ones the operations named. A unified
        // contact is read as such; a member left alone is read as it is now, an individual contact.
        groupIDs += result.groupsLeftByDeletedContacts
        unifiedIDs += result.unifiedContactsChangedByDeletes
        let fields = plan.selection?.fields(for: "SaveResult") ?? []
        let contactFields = KeyPlanning.contactFields(under: fields, path: ["contacts"])
        let groupFields = KeyPlanning.fields(under: fields, path: ["groups"], type: "Group")
        let (goneContacts, goneGroups) = (Set(deletedContacts), Set(deletedGroups))
        // Only what the result selects is read, so a save answering `revision` alone reads nothing after its commit.
        let selected = Set(fields.compactMap { SaveResultField(rawValue: $0.code) })
        let (savedIDs, savedUnified, savedGroups) =
            (
                selected.contains(.contacts) ? Self.unique(contactIDs.filter { !goneContacts.contains($0) }) : [],
                selected.contains(.contacts) ? Self.unique(unifiedIDs.filter { !goneContacts.contains($0) }) : [],
                selected.contains(.groups) ? Self.unique(groupIDs.filter { !goneGroups.contains($0) }) : []
            )
        var (contacts, groups): ([Contact], [Group]) = ([], [])
        if !savedIDs.isEmpty || !savedUnified.isEmpty || !savedGroups.isEmpty {
            // Everything the result shows is read in one state, as a query's fields are: a later commit may show
            // (the schema says so), but a record never mixes two (a group's name of one and its member count of
            // another).
            (contacts, groups) = try await store.withConsistentReads {
                let contacts = try await savedContacts(
                    savedIDs, unified: savedUnified, keys: KeyPlanning.keys(contactFields))
                let groups = try await store.groups(withIdentifiers: savedGroups)
                try await prepareContacts(contacts, contactFields)
                try await prepareGroups(groups, groupFields)
                return (contacts, groups)
            }
        }

        writer.beginObject()
        for sub in fields {
            switch SaveResultField(rawValue: sub.code) {
            case .revision?: leaf(sub) { writer in result.revision.map { writer.string(String($0)) } ?? writer.null() }
            case .historyToken?: leaf(sub) { $0.string(result.historyToken) }
            case .contacts?:
                let inner = sub.selection?.fields(for: "Contact") ?? []
                guard field(sub, { list(contacts, sub) { writeContact($0, inner) } }) else { return false }
            case .groups?:
                let inner = sub.selection?.fields(for: "Group") ?? []
                guard field(sub, { list(groups, sub) { writeGroup($0, inner) } }) else { return false }
            case .deletedContactIds?: leaf(sub) { $0.value(.array(Self.unique(deletedContacts).map(JSONValue.string))) }
            case .deletedGroupIds?: leaf(sub) { $0.value(.array(Self.unique(deletedGroups).map(JSONValue.string))) }
            case nil: guard otherField(sub, "SaveResult") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    /// The saved contacts as they are now: individual contacts by their identifiers, then the unified contacts of
    /// link operations and of updates made through a unified identifier.
    private func savedContacts(_ ids: [String], unified: [String], keys: ContactKeySet) async throws -> [Contact] {
        let plain = try await store.contacts(withIdentifiers: ids, keysToFetch: keys)
        let found = Set(plain.map(\.identifier))
        let through = Self.unique(ids.filter { !found.contains($0) } + unified)
        guard !through.isEmpty else { return plain }
        let linked = try await store.contacts(withIdentifiers: through, keysToFetch: keys, unify: true)
        return plain + linked.filter { !found.contains($0.identifier) }
    }

    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
