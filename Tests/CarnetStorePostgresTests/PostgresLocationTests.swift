import CarnetStore
import Testing

@testable import CarnetStorePostgres

@Suite("PostgreSQL locations")
struct PostgresLocationTests {
    @Test("A URL gives host, port, user, database, TLS and pool size; the description hides the password")
    func parses() throws {
        let location = try PostgresLocation(
            url: "postgres://carnet:s3cret@db.example.com:6543/contacts?sslmode=require&sslrootcert=/ca.pem&pool_size=8"
        )
        #expect(location.host == "db.example.com" && location.port == 6543)
        #expect(location.username == "carnet" && location.password == "s3cret" && location.database == "contacts")
        #expect(location.tls == .require && location.rootCertificatePath == "/ca.pem" && location.poolSize == 8)
        #expect(!location.description.contains("s3cret"))
        let defaults = try PostgresLocation(url: "postgresql://alice@localhost")
        #expect(defaults.port == 5432 && defaults.database == "alice" && defaults.tls == .verifyFull)
        #expect(defaults.poolSize == 20 && defaults.password == nil)
    }

    @Test(
        "Bad URLs are validation errors naming the part at fault",
        arguments: [
            ("mysql://localhost/db", "url"), ("postgres:///db", "url.host"),
            ("postgres://localhost/db?sslmode=allow", "url.sslmode"),
            ("postgres://localhost/db?pool_size=0", "url.pool_size"),
            ("postgres://localhost/db?pool_size=1", "url.pool_size"),
            ("postgres://localhost/db?password=x", "url.password"),
        ])
    func refuses(url: String, keyPath: String) {
        #expect {
            _ = try PostgresLocation(url: url)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .validationFailed && error?.keyPaths == [keyPath]
        }
    }

    @Test("SQLSTATEs map to store codes: busy and restarts to UNAVAILABLE with a retry, a full disk, corruption")
    func sqlStates() {
        for state in ["40001", "40P01", "55P03", "57P01", "53300"] {
            #expect(StoreError.mapped(sqlState: state)?.code == .unavailable)
            #expect(StoreError.mapped(sqlState: state)?.retryAfter != nil)
        }
        #expect(StoreError.mapped(sqlState: "53100")?.code == .storageFull)
        #expect(StoreError.mapped(sqlState: "23505")?.code == .insertedRecordAlreadyExists)
        #expect(StoreError.mapped(sqlState: "XX001")?.code == .storageFailure)
        #expect(StoreError.mapped(sqlState: "42601") == nil)
        #expect(StoreError.mapped(sqlState: "42501")?.message.contains("42501") == true)
    }
}
