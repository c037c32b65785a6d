import CarnetStore

extension Executor {
    /// The mutations that manage books, grants, tokens and principals (everything but `save` and `importVCards`).
    func managementField(_ code: MutationField, _ plan: FieldPlan) async throws -> Bool {
        let viewer = try requireViewer()
        let arguments = args(plan)
        let id = arguments.string("id") ?? ""
        let catalog = viewer.catalog
        switch code {
        case .createAddressBook:
            try requireWholeToken(viewer)
            let book = try await catalog.createBook(name: arguments.string("name") ?? "", ownerID: viewer.principalID)
            return try await writeVisibleBook(VisibleBook(book: book, access: .owner, sharedBy: nil), viewer, plan)
        case .renameAddressBook:
            try requireWholeToken(viewer)
            let book = try await catalog.renameBook(
                id: id, to: arguments.string("name") ?? "", by: viewer.principalID)
            return try await writeVisibleBook(VisibleBook(book: book, access: .owner, sharedBy: nil), viewer, plan)
        case .deleteAddressBook:
            try requireWholeToken(viewer)
            let book = try await catalog.deleteBook(id: id, by: viewer.principalID)
            markCommitted()
            context.accessNarrowed(.bookDeleted(bookID: book.id))
            try await viewer.books.delete(book)
            writer.string(book.id)
            return true
        case .shareAddressBook:
            try requireWholeToken(viewer)
            let access: BookAccess
            switch arguments.string("access") {
            case "READ": access = .read
            case "READ_WRITE": access = .readWrite
            default:
                // OWNER is an access the schema's enum lists (books report it), not one a grant can give.
                throw FieldError.badUserInput(
                    "A book is shared with READ or READ_WRITE access; ownership is not shared.")
            }
            try await catalog.share(
                bookID: id, with: arguments.string("principalId") ?? "", access: access, by: viewer.principalID)
            markCommitted()
            guard let visible = try await viewer.book(id: id) else {
                throw StoreError.noSuchBook(id)
            }
            return try await writeVisibleBook(visible, viewer, plan)
        case .unshareAddressBook:
            try requireWholeToken(viewer)
            let principalID = arguments.string("principalId") ?? ""
            let withdrawn = try await catalog.unshare(bookID: id, with: principalID, by: viewer.principalID)
            if withdrawn { context.accessNarrowed(.grantWithdrawn(bookID: id, principalID: principalID)) }
            writer.bool(withdrawn)
            return true
        case .createAccessToken:
            return try await createToken(viewer, arguments, plan)
        case .revokeAccessToken:
            try await requireRevocable(id, viewer)
            let revoked = try await catalog.revokeAccessToken(id: id, principalID: viewer.principalID)
            if revoked { context.accessNarrowed(.tokenRevoked(tokenID: id)) }
            writer.bool(revoked)
            return true
        case .createPrincipal:
            try await requireAdmin(viewer)
            let kind: Principal.Kind = arguments.string("kind") == "SERVICE" ? .service : .user
            let principal = try await catalog.createPrincipal(
                name: arguments.string("name") ?? "", kind: kind, isAdmin: arguments.bool("isAdmin") ?? false)
            markCommitted()
            return writePrincipal(principal, plan.selection?.fields(for: "Principal") ?? [])
        case .setPrincipalDisabled:
            try await requireAdmin(viewer)
            guard id != viewer.principalID else {
                throw FieldError(message: "An admin cannot disable itself.", code: .forbidden)
            }
            let disabled = arguments.bool("disabled") ?? true
            try await catalog.setDisabled(disabled, principal: id)
            markCommitted()
            if disabled { context.accessNarrowed(.principalDisabled(principalID: id)) }
            guard let principal = try await catalog.principal(id: id) else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [id])
            }
            markCommitted()
            return writePrincipal(principal, plan.selection?.fields(for: "Principal") ?? [])
        case .deletePrincipal:
            try await requireAdmin(viewer)
            guard id != viewer.principalID else {
                throw FieldError(message: "An admin cannot delete itself.", code: .forbidden)
            }
            let deleted = try await catalog.deletePrincipal(id: id)
            markCommitted()
            context.accessNarrowed(.principalDisabled(principalID: id))
            for book in deleted { try await viewer.books.delete(book) }
            writer.string(id)
            return true
        case .save, .importVCards:
            throw FieldError(message: "Not a management mutation.", code: .internalServerError)
        }
    }

    /// A token revokes itself and its principal's tokens no wider than it (scopes, books, authors, as made), as it
    /// creates only such tokens: a token given to an app for one shared book revoked its principal's unlimited
    /// token, and locked every other client out (an outside tester's find). Another principal's token, or an
    /// unknown id, is left to the revocation, which answers `false` for it, as it always did.
    private func requireRevocable(_ id: String, _ viewer: GraphQLViewer) async throws {
        guard id != viewer.tokenID,
            let (record, _) = try await viewer.catalog.accessToken(id: id), record.principalID == viewer.principalID,
            let (own, _) = try await viewer.catalog.accessToken(id: viewer.tokenID)
        else { return }
        // The scopes the tokens were made with: a token's own may be fewer now (no book it may write left).
        let scopes = Set(record.scopes.map { $0.lowercased() }).isSubset(of: Set(own.scopes.map { $0.lowercased() }))
        let books = own.bookIDs.map { limit in record.bookIDs.map { Set($0).isSubset(of: Set(limit)) } ?? false }
        let authors =
            own.authors.isEmpty || (!record.authors.isEmpty && Set(record.authors).isSubset(of: Set(own.authors)))
        guard scopes, books ?? true, authors else {
            throw FieldError(
                message: "A token can revoke only tokens with no more scopes, books or authors than its own.",
                code: .forbidden)
        }
    }

    /// A token's text for the viewer, with no scope and no book beyond the creating token's.
    private func createToken(_ viewer: GraphQLViewer, _ arguments: ArgumentValues, _ plan: FieldPlan) async throws
        -> Bool
    {
        let scopes = Set((arguments["scopes"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() })
        guard scopes.isSubset(of: viewer.scopes) else {
            throw FieldError(message: "A token cannot create a token with scopes it lacks.", code: .forbidden)
        }
        let books = arguments["addressBookIds"]?.arrayValue?.compactMap(\.stringValue)
        if let limit = viewer.bookIDs {
            guard let books, Set(books).isSubset(of: Set(limit)) else {
                throw FieldError(
                    message: "A token limited to some books can only create tokens limited to those.",
                    code: .forbidden)
            }
        }
        let authors = (arguments["transactionAuthors"]?.arrayValue ?? []).compactMap(\.stringValue)
        // No authors means any author: a bound token may only create tokens bound to some of its own.
        if !viewer.transactionAuthors.isEmpty {
            guard !authors.isEmpty, Set(authors).isSubset(of: Set(viewer.transactionAuthors)) else {
                throw FieldError(
                    message: "A token bound to transaction authors can only create tokens bound to some of them.",
                    code: .forbidden)
            }
        }
        let (token, record) = try await viewer.createToken(arguments.string("name") ?? "", scopes, authors, books)
        markCommitted()
        writer.beginObject()
        for sub in plan.selection?.fields(for: "CreatedAccessToken") ?? [] {
            switch CreatedAccessTokenField(rawValue: sub.code) {
            case .token?: leaf(sub) { $0.string(token) }
            case .id?: leaf(sub) { $0.string(record.id) }
            case .name?: leaf(sub) { $0.string(record.name) }
            case .scopes?:
                leaf(sub) { writer in
                    writer.beginArray()
                    for scope in record.scopes {
                        writer.comma()
                        writer.string(scope.uppercased())
                    }
                    writer.endArray()
                }
            case nil: guard otherField(sub, "CreatedAccessToken") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    /// Managing books needs a token that may open all of its principal's books: a token limited to one book (a
    /// sync service's) must not reach the others.
    private func requireWholeToken(_ viewer: GraphQLViewer) throws {
        guard viewer.bookIDs == nil else {
            throw FieldError(message: "A token limited to some books cannot manage books.", code: .forbidden)
        }
    }

    /// Principal management: an admin, with a token not limited to some books.
    private func requireAdmin(_ viewer: GraphQLViewer) async throws {
        try requireWholeToken(viewer)
        guard try await viewer.catalog.principal(id: viewer.principalID)?.isAdmin == true else {
            throw FieldError(message: "Only an admin may manage principals.", code: .forbidden)
        }
    }

    /// An address book, opened when its selection reads records.
    /// The current mutation field has written what it changes: what fails after (its result's selection) says so,
    /// and the execution deadline no longer cuts it.
    func markCommitted() { (budget.pastCommit, committedMutation) = (true, true) }

    func writeVisibleBook(_ visible: VisibleBook, _ viewer: GraphQLViewer, _ plan: FieldPlan) async throws -> Bool {
        markCommitted()
        guard Self.readsRecords(plan.selection?.fields(for: "AddressBook") ?? []) else {
            return try await writeBook(visible, viewer, plan)
        }
        return try await inBook(visible, viewer) { try await writeBook(visible, viewer, plan) }
    }

    /// `principals`: admins only.
    func writePrincipals(_ plan: FieldPlan) async throws -> Bool {
        let viewer = try requireViewer()
        try await requireAdmin(viewer)
        let principals = try await viewer.catalog.principals()
        let fields = plan.selection?.fields(for: "Principal") ?? []
        return list(principals, plan) { writePrincipal($0, fields) }
    }
}
