import CarnetStore
import GRDB

/// Access tokens for the network service. Only a hash of each token's secret is kept; `authors` is a JSON array
/// of the transaction authors the token may write as (empty: any).
enum Migration003 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE accessToken (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    secretHash BLOB NOT NULL,
                    scopes TEXT NOT NULL,
                    authors TEXT NOT NULL,
                    createdAt REAL NOT NULL,
                    revokedAt REAL
                ) WITHOUT ROWID;
                """)
    }
}
