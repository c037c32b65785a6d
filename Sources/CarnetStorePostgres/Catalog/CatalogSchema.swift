/// The catalog's tables: who exists and who may open what. Small reference tables (with Citus, reference tables
/// copied to every node); the books' own tables lead every key with the book.
enum CatalogSchema {
    static let v1 = PostgresMigrations.Migration(
        id: "catalog-v1",
        statements: [
            """
            CREATE TABLE principal (
                id text PRIMARY KEY,
                name text NOT NULL UNIQUE,
                kind text NOT NULL,
                is_admin boolean NOT NULL DEFAULT false,
                created_at double precision NOT NULL,
                disabled_at double precision,
                default_book_id text
            )
            """,
            """
            CREATE TABLE address_book (
                id text PRIMARY KEY,
                name text NOT NULL,
                owner_id text NOT NULL REFERENCES principal (id) ON DELETE CASCADE,
                created_at double precision NOT NULL
            )
            """,
            "CREATE INDEX address_book_owner ON address_book (owner_id)",
            """
            CREATE TABLE book_grant (
                book_id text NOT NULL REFERENCES address_book (id) ON DELETE CASCADE,
                principal_id text NOT NULL REFERENCES principal (id) ON DELETE CASCADE,
                access text NOT NULL,
                granted_at double precision NOT NULL,
                PRIMARY KEY (book_id, principal_id)
            )
            """,
            "CREATE INDEX book_grant_principal ON book_grant (principal_id)",
            // Identifiers handed out once: a deleted principal's or book's id is never given again.
            "CREATE TABLE retired_identifier (id text PRIMARY KEY)",
            """
            CREATE TABLE access_token (
                id text PRIMARY KEY,
                principal_id text NOT NULL REFERENCES principal (id) ON DELETE CASCADE,
                name text NOT NULL,
                secret_hash bytea NOT NULL,
                scopes text NOT NULL,
                authors text NOT NULL,
                book_ids text,
                created_at double precision NOT NULL,
                revoked_at double precision
            )
            """,
            "CREATE INDEX access_token_principal ON access_token (principal_id)",
        ])

    /// A row while `carnet migrate-store` is copying into the database, removed once every book is copied and
    /// checked: servers refuse a database whose copy did not finish (killed, or failed on a changed source), which
    /// held the catalog and some books, and answered the old tokens with the other books empty (an outside
    /// tester's find). Another run of migrate-store starts the copy over.
    static let v2 = PostgresMigrations.Migration(
        id: "catalog-v2",
        statements: ["CREATE TABLE unfinished_migration (started_at double precision NOT NULL)"])
}
