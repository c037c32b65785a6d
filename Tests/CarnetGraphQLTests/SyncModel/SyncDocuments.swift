/// The GraphQL documents a sync client of the model test sends: the same contact selection everywhere, so a
/// contact from an event, a save result and a plain query compare as equal JSON.
enum SyncDocuments {
    static let contactFields = "id givenName note phoneNumbers { identifier label value } linkedContacts { id }"

    static let events = """
        events { __typename
          ... on DropEverythingEvent { reason }
          ... on AddContactEvent { contactId contact { \(contactFields) } }
          ... on UpdateContactEvent { contactId contact { \(contactFields) } }
          ... on DeleteContactEvent { contactId }
          ... on AddGroupEvent { groupId group { id name } }
          ... on UpdateGroupEvent { groupId group { id name } }
          ... on DeleteGroupEvent { groupId }
          ... on AddMemberToGroupEvent { contactId groupId }
          ... on RemoveMemberFromGroupEvent { contactId groupId }
        }
        """

    static let pull = """
        query Pull($since: String, $groups: Boolean!, $excluded: [String!], $first: Int!, $unify: Boolean!) {
          changeHistory(
            since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, first: $first, unifyResults: $unify
          ) {
            token hasMore \(events)
          }
        }
        """

    /// ``pull`` on a book named by id.
    static let bookPull = """
        query Pull($since: String, $groups: Boolean!, $excluded: [String!], $first: Int!, $book: ID!, $unify: Boolean!) {
          addressBook(id: $book) {
            changeHistory(
              since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, first: $first,
              unifyResults: $unify
            ) {
              token hasMore \(events)
            }
          }
        }
        """

    static let subscribe = """
        subscription Feed($since: String, $groups: Boolean!, $excluded: [String!], $book: ID, $unify: Boolean!) {
          changeHistory(
            since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, addressBookId: $book,
            unifyResults: $unify
          ) {
            token hasMore \(events)
          }
        }
        """

    static let save = """
        mutation Save($request: SaveRequestInput!, $book: ID) {
          save(request: $request, addressBookId: $book) {
            contacts { \(contactFields) } groups { id name } deletedContactIds deletedGroupIds
          }
        }
        """

    static let state = """
        query State($after: String, $unify: Boolean!) {
          contacts(first: 1000, after: $after, sortOrder: NONE, unify: $unify) {
            nodes { \(contactFields) } pageInfo { hasNextPage endCursor }
          }
          groups { id name members(first: 1000, sortOrder: NONE) { id } }
        }
        """

    /// ``state`` of a book named by id.
    static let bookState = """
        query State($after: String, $book: ID!, $unify: Boolean!) {
          addressBook(id: $book) {
            contacts(first: 1000, after: $after, sortOrder: NONE, unify: $unify) {
              nodes { \(contactFields) } pageInfo { hasNextPage endCursor }
            }
            groups { id name members(first: 1000, sortOrder: NONE) { id } }
          }
        }
        """

    /// The contacts with these identifiers as they are now, as a client reads them again after its own save that
    /// touched links: unified or individual as the client syncs.
    static let reread = """
        query Reread($ids: [ID!], $unify: Boolean!) {
          contacts(first: 1000, filter: {ids: $ids}, sortOrder: NONE, unify: $unify) { nodes { \(contactFields) } }
        }
        """

    /// ``reread`` of a book named by id.
    static let bookReread = """
        query Reread($ids: [ID!], $unify: Boolean!, $book: ID!) {
          addressBook(id: $book) {
            contacts(first: 1000, filter: {ids: $ids}, sortOrder: NONE, unify: $unify) { nodes { \(contactFields) } }
          }
        }
        """
}
