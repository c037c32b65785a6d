import CarnetStore
import PostgresNIO

extension PostgresSaveTransaction {
    /// Writes again the `contact_link_name` rows (``BookSchema/v5``) of the unified contacts this save changed,
    /// and of those whose members it renamed, once each, after its operations.
    mutating func refreshLinkedNames() async throws {
        if !renamedContacts.isEmpty {
            let renamed = Array(renamedContacts)
            renamedContacts = []
            let rows = try await run(
                "SELECT unified_id FROM contact_link WHERE book_id = \(bookID) AND contact_id = ANY(\(renamed))")
            for try await unified in rows.decode(String.self) { linkedNamesToRefresh.insert(unified) }
        }
        guard !linkedNamesToRefresh.isEmpty else { return }
        let unified = linkedNamesToRefresh.sorted()
        linkedNamesToRefresh = []
        try await run("DELETE FROM contact_link_name WHERE book_id = \(bookID) AND unified_id = ANY(\(unified))")
        var bindings = PostgresBindings()
        bindings.append(bookID)
        bindings.append(unified)
        try await run(
            PostgresQuery(
                unsafeSQL: BookSchema.fillLinkedNames("lh.book_id = $1 AND lh.unified_id = ANY($2)"),
                binds: bindings))
    }
}
