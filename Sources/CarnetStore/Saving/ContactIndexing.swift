/// The derived data that makes contacts findable and sortable: the FTS name document and the sort keys.
package enum ContactIndexing {
    /// The keys the sort keys and the name document are made of (``sortKey(_:_:)`` and ``names(_:)`` read no
    /// other), in storage order: a contact holding these can be indexed.
    package static let sourceKeys: [ContactKey] = ContactKey.stringKeys.filter { ContactKeySet.names.contains($0) }

    /// The sort key for a name order; `contact` must have the name keys available.
    package static func sortKey(_ contact: Contact, _ order: ContactKey) -> String {
        let given = contact.storedString(.givenName)
        let family = contact.storedString(.familyName)
        return TextFolding.sortKey(
            primary: order == .givenName ? given : family, secondary: order == .givenName ? family : given,
            middle: contact.storedString(.middleName), organization: contact.storedString(.organizationName))
    }

    /// The folded name words the search indexes. Folded here as queries are: the tokenizer's own folding leaves
    /// "ł" or "ø" alone.
    package static func names(_ contact: Contact) -> String {
        TextFolding.fold(unfoldedNames(contact))
    }

    private static func unfoldedNames(_ contact: Contact) -> String {
        ContactKey.searchableNameKeys.map { contact.storedString($0) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether the contact's stored name keys, sort keys and words, differ from those of SQLite v13 and PostgreSQL
    /// books-v6, whose folding did not compose text and whose indexes folded the folded names again into words:
    /// the contacts a migration to today's indexing writes again.
    package static func isFoldedDifferently(_ contact: Contact) -> Bool {
        let names = unfoldedNames(contact)
        // Every key the sort keys read is a name key: ASCII names fold as they did.
        guard !names.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        let old = TextFolding.foldWithoutComposing
        let oldFolded = old(names)
        let oldWords = TextFolding.splitWords(old(oldFolded)).map { Array($0.utf8) }
        guard oldWords == TextFolding.splitWords(TextFolding.fold(names)).map({ Array($0.utf8) }) else { return true }
        // SQLite removes a unified contact's row by its kept names (folded once, the old way) split into words:
        // those words must be the ones indexed.
        guard oldWords == TextFolding.splitWords(oldFolded).map({ Array($0.utf8) }) else { return true }
        for key in [ContactKey.givenName, .familyName, .middleName, .organizationName] {
            let value = contact.storedString(key)
            if !old(value).hasSameBytes(as: TextFolding.fold(value)) { return true }
        }
        return false
    }
}

/// The derived data that orders groups: the folded name (`sortName`).
package enum GroupIndexing {
    package static func sortName(_ name: String) -> String { TextFolding.fold(name) }

    /// Whether the group's sort name differs from the one of the folding before it composed text (as
    /// ``ContactIndexing/isFoldedDifferently(_:)``).
    package static func isFoldedDifferently(_ name: String) -> Bool {
        !TextFolding.foldWithoutComposing(name).hasSameBytes(as: sortName(name))
    }
}
