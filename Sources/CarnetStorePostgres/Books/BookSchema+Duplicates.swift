extension BookSchema {
    /// The search-key index with the contact: `duplicateCandidates` counts the contacts of every email and phone key
    /// of a book (`GROUP BY kind, search_key HAVING count(DISTINCT contact_id) ...`), which over
    /// `labeled_value_search` fetched the heap row of each value and over this index can scan the index only.
    static let v3 = PostgresMigrations.Migration(
        id: "books-v3",
        statements: [
            """
            CREATE INDEX labeled_value_search_contact ON labeled_value (book_id, kind, search_key, contact_id)
            WHERE search_key IS NOT NULL
            """
        ])
}

extension BookSchema {
    /// Drops `labeled_value_search`: `labeled_value_search_contact` (v3) has the same columns first and the same
    /// condition, so it serves every lookup the older index served, and each email and phone a save writes went into
    /// both.
    static let v6 = PostgresMigrations.Migration(
        id: "books-v6", statements: ["DROP INDEX IF EXISTS labeled_value_search"])
}
