import CarnetStore

extension BookSchema {
    /// The condition of `change_event_link_change`, spelled the same in the queries that use it: PostgreSQL uses a
    /// partial index only for a query whose own terms imply the index's, which a bound parameter never does.
    static let linkChangeCondition = "kind = \(ChangeEventKind.updateContact.rawValue) AND changed_keys = ''"

    /// The link changes of the history, by contact: an update through a unified contact based on an earlier revision
    /// looks for a link change of its members since that revision (`PostgresSaveTransaction.updateUnified`). Over
    /// `change_event_seq` that read every event of the book since the base, under the book's save lock: a base
    /// revision from long ago held the book's other writers for as long. Partial: link changes are the only
    /// updates logged with no keys, a few rows beside the rest of the history.
    static let v8 = PostgresMigrations.Migration(
        id: "books-v8",
        statements: [
            "CREATE INDEX change_event_link_change ON change_event (book_id, record_id, seq) WHERE \(linkChangeCondition)"
        ])
}
