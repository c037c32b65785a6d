extension CarnetSchema {
    /// The root types. Every type and field has a description: tools show them to people.
    static let rootSDL = #"""
        """
        The entry point for reads. Fetching a contact reads only the keys its selection asks for.
        """
        type Query {
          """
          Fetches any record (contact, group or container) by its global identifier; null if there is none.
          """
          node(
            "The record's identifier."
            id: ID!
          ): Node

          "A contact by identifier; null if there is none (or it was deleted)."
          contact(
            "The contact's identifier."
            id: ID!
          ): Contact

          """
          A page of contacts matching a filter, in a sort order (a Relay connection). Give `first` (with `after`) or
          `last` (with `before`), from 1 to 1000; with neither, the first 100.
          """
          contacts(
            "Conditions the contacts must all meet; none means every contact."
            filter: ContactFilter

            "The order of the contacts."
            sortOrder: ContactSortOrder = USER_DEFAULT

            "How many contacts from the start (or after `after`)."
            first: Int

            "A cursor from an earlier page: return the contacts after it."
            after: String

            "How many contacts from the end (or before `before`)."
            last: Int

            "A cursor from an earlier page: return the contacts before it."
            before: String
          ): ContactConnection!

          "A group by identifier; null if there is none."
          group(
            "The group's identifier."
            id: ID!
          ): Group

          "Every group, or those of one container, by name."
          groups(
            "Only the groups of this container."
            containerId: ID
          ): [Group!]!

          "A container by identifier; null if there is none."
          container(
            "The container's identifier."
            id: ID!
          ): Container

          "Every container (account), the default one first."
          containers: [Container!]!

          "The container where records saved without a container go."
          defaultContainer: Container!

          """
          The changes since a history token, coalesced per record. With no token (or one the store cannot use:
          malformed, from another store, expired) the first event is DropEverythingEvent, followed by an add event
          for every record: full and incremental sync are the same loop. Keep `token` and ask again while `hasMore`.

          The client contract, under which a replica always converges to the server: apply every event of a page,
          then store the page's token; add and update events carry the record as it is now (apply them as an
          upsert of the fetched keys); a delete may name a record the client never saw (ignore it); deleting a
          contact or a group also ends its memberships, which get no events of their own; membership events state
          the membership as it is now. A client may exclude its own transaction author and apply its own save
          results at once: deletes by others still reach it even when the record was added after its token.
          """
          changeHistory(
            "The token from the last page this client processed."
            since: String

            "Include group and membership events."
            includeGroupChanges: Boolean = false

            "Leave out changes saved by these transaction authors (usually the client's own)."
            excludedAuthors: [String!] = []

            "The most events in the page, from 1 to 10000."
            first: Int = 1000
          ): ChangeHistoryPage!

          "The history token for now: changes fetched since it start after the latest commit."
          currentHistoryToken: String!

          "How long change history is kept, and the oldest token still valid."
          changeHistoryRetention: ChangeHistoryRetention!
        }

        """
        The entry point for writes.
        """
        type Mutation {
          """
          Executes a save request: its operations run in order in one transaction, all or nothing. A failed save
          returns an error whose `extensions.code` is the store's code (RECORD_DOES_NOT_EXIST, CONFLICT,
          VALIDATION_FAILED, ...) and writes nothing.
          """
          save(
            "The operations and their transaction author."
            request: SaveRequestInput!
          ): SaveResult!

          """
          Imports vCard text (2.1, 3.0 or 4.0, many cards): a card whose UID names a contact updates it (only what
          changed), others are added; CATEGORIES become groups. A bad card is skipped and reported with its line; with
          `strict` it refuses the whole text (VCARD_MALFORMED or VALIDATION_FAILED) and nothing is written. The changes
          appear in the change history under the transaction author.
          """
          importVCards(
            "The vCard text."
            data: String!

            "The container to import into; the default container when absent."
            containerId: ID

            "Who makes the change; recorded with the history events (your token may restrict it)."
            transactionAuthor: String

            "Refuse everything at the first bad card instead of skipping it."
            strict: Boolean = false
          ): VCardImportResult!
        }

        """
        Live updates.
        """
        type Subscription {
          """
          Fires after each commit (of this server or of another process on the same database) with the new history
          token and the commits' authors, less the excluded ones; commits by excluded authors alone fire nothing. A
          client that reads slowly gets one payload for the commits it has not read, naming the authors of all of
          them.
          """
          storeDidChange(
            "Leave out commits whose authors are all in this list."
            excludedAuthors: [String!] = []
          ): StoreChange!

          """
          Catches up from a token, page by page, then streams new events as they are committed. Each payload carries
          the token to resume from. No event is ever dropped: a payload is produced when the previous one was
          written, so a client that reads slowly gets fewer, larger payloads that cover what piled up. If the
          subscription fails, it ends with an error; resume from the last payload's token.
          """
          changeHistory(
            "The token from the last page this client processed; none for a full sync."
            since: String

            "Include group and membership events."
            includeGroupChanges: Boolean = false

            "Leave out changes saved by these transaction authors."
            excludedAuthors: [String!] = []
          ): ChangeHistoryPage!
        }
        """#
}
