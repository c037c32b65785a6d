import CarnetStore
import CarnetStoreTestSupport
import Logging
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

@Suite("PostgreSQL book schema", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct BookSchemaTests {
    @Test("Every book table's primary key and every index lead with book_id, so Citus can distribute by book")
    func keyedByBook() async throws {
        try await PostgresTestDatabase.with { location in
            let catalog = try await PostgresCatalog.open(location)
            let rows = try await catalog.database.read { connection in
                try await connection.rows(
                    """
                    SELECT t.relname, i.relname, a.attname
                    FROM pg_index x
                    JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
                    JOIN pg_namespace n ON n.oid = t.relnamespace
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
                    WHERE n.nspname = current_schema()
                    """, logger: catalog.logger
                ).decode((String, String, String).self).array()
            }
            try await catalog.close()
            let bookIndexes = rows.filter { BookSchema.bookTables.contains($0.0) }
            // Each table has its primary key at least; every table of the list exists.
            #expect(Set(bookIndexes.map(\.0)) == Set(BookSchema.bookTables))
            for (table, index, first) in bookIndexes {
                #expect(first == "book_id", "\(table).\(index) leads with \(first)")
            }
        }
    }
}
