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
        TextFolding.fold(
            ContactKey.searchableNameKeys.map { contact.storedString($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        )
    }
}

/// The derived data that orders groups: the folded name (`sortName`).
package enum GroupIndexing {
    package static func sortName(_ name: String) -> String { TextFolding.fold(name) }
}
