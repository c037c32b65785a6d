/// The GraphQL documents a sync client of the model test sends: the same contact selection everywhere, so a
/// contact from an event, a save result and a plain query compare as equal JSON.
enum SyncDocuments {
    static let contactFields = "id givenName note phoneNumbers { identifier label value }"

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
        query Pull($since: String, $groups: Boolean!, $excluded: [String!], $first: Int!) {
          changeHistory(since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, first: $first) {
            token hasMore \(events)
          }
        }
        """

    /// ``pull`` on a book named by id.
    static let bookPull = """
        query Pull($since: String, $groups: Boolean!, $excluded: [String!], $first: Int!, $book: ID!) {
          addressBook(id: $book) {
            changeHistory(since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, first: $first) {
              token hasMore \(events)
            }
          }
        }
        """

    static let subscribe = """
        subscription Feed($since: String, $groups: Boolean!, $excluded: [String!], $book: ID) {
          changeHistory(since: $since, includeGroupChanges: $groups, excludedAuthors: $excluded, addressBookId: $book) {
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
        query State($after: String) {
          contacts(first: 1000, after: $after, sortOrder: NONE) {
            nodes { \(contactFields) } pageInfo { hasNextPage endCursor }
          }
          groups { id name members(first: 1000, sortOrder: NONE) { id } }
        }
        """

    /// ``state`` of a book named by id.
    static let bookState = """
        query State($after: String, $book: ID!) {
          addressBook(id: $book) {
            contacts(first: 1000, after: $after, sortOrder: NONE) {
              nodes { \(contactFields) } pageInfo { hasNextPage endCursor }
            }
            groups { id name members(first: 1000, sortOrder: NONE) { id } }
          }
        }
        """
}
