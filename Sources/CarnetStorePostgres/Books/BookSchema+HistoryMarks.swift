extension BookSchema {
    /// The mark of the commit at a book's oldest position, kept when compaction removes that commit's events, so a
    /// history token held there is still checked against the book's history (``HistoryToken/mark``). Null when
    /// the book was never compacted, or was compacted before marks.
    static let v9 = PostgresMigrations.Migration(
        id: "books-v9",
        statements: ["ALTER TABLE book_store ADD COLUMN oldest_mark bigint"])
}
