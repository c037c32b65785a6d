import CarnetServer
import CarnetStore
import CarnetStoreTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// TLS to PostgreSQL with certificate verification: the test server is given a certificate from a CA of the test's
/// own (`ssl = on` through `ALTER SYSTEM`, undone afterwards); Carnet connects when it verifies against that CA and
/// refuses a server its CA did not sign, in `verify-full` and in `require`.
@Suite(
    "PostgreSQL over TLS", .serialized,
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresTLSTests {
    @Test("verify-full against the server's CA connects encrypted; another CA is refused; disable stays plain")
    func verifiedTLS() async throws {
        try await PostgresTestDatabase.with { location in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pg-tls-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let good = try DevelopmentCertificates.ensure(in: directory.appendingPathComponent("good").path)
            let other = try DevelopmentCertificates.ensure(in: directory.appendingPathComponent("other").path)
            try Self.letServerRead(directory, key: good.privateKeyPath)
            let admin = try await CarnetStorePostgres.PostgresDatabase.connect(
                location, logger: .init(label: "tls-test"))
            try await Self.configure(admin, certificate: good.certificatePath, key: good.privateKeyPath)
            do {
                var verified = location
                verified.tls = .verifyFull
                verified.rootCertificatePath = good.caPath
                // The postmaster may take a moment after the reload to serve TLS to new connections (a CI run was
                // refused once): tried again while the database answers UNAVAILABLE.
                let backend = try await Self.opened(verified)
                let encrypted = try await backend.database.read { connection in
                    try await connection.rows(
                        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: backend.database.logger
                    ).decode(Bool.self).array()
                }
                #expect(encrypted == [true])
                #expect(try await backend.catalog.principals().contains { $0.isAdmin })
                try await backend.close()

                for mode in [PostgresLocation.TLSMode.verifyFull, .require] {
                    var forged = location
                    forged.tls = mode
                    forged.rootCertificatePath = other.caPath
                    forged.connectTimeout = .seconds(5)
                    await #expect(throws: StoreError.self, "\(mode) with another CA") {
                        let backend = try await PostgresBackend.open(forged)
                        try await backend.close()
                    }
                }

                let plain = try await Self.opened(location)
                let unencrypted = try await plain.database.read { connection in
                    try await connection.rows(
                        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: plain.database.logger
                    ).decode(Bool.self).array()
                }
                #expect(unencrypted == [false])
                try await plain.close()
            } catch {
                try? await Self.reset(admin)
                await admin.close()
                throw error
            }
            try await Self.reset(admin)
            await admin.close()
        }
    }

    /// The server (user `postgres` when the tests run as root) must read the files, and PostgreSQL refuses a key
    /// others can read.
    static func letServerRead(_ directory: URL, key: String) throws {
        let fm = FileManager.default
        for path in [directory.path]
            + (try fm.subpathsOfDirectory(atPath: directory.path)).map({ directory.appendingPathComponent($0).path })
        {
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: path, isDirectory: &isDirectory)
            try fm.setAttributes([.posixPermissions: isDirectory.boolValue ? 0o755 : 0o644], ofItemAtPath: path)
        }
        try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        if getuid() == 0, let postgres = getpwnam("postgres") {
            #expect(chown(key, postgres.pointee.pw_uid, postgres.pointee.pw_gid) == 0)
        }
    }

    static func configure(_ admin: CarnetStorePostgres.PostgresDatabase, certificate: String, key: String) async throws
    {
        try await admin.read { connection in
            for statement in [
                "ALTER SYSTEM SET ssl_cert_file = '\(certificate)'", "ALTER SYSTEM SET ssl_key_file = '\(key)'",
                "ALTER SYSTEM SET ssl = on", "SELECT pg_reload_conf()",
            ] {
                try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: admin.logger)
            }
        }
        // The reload reaches new connections once the postmaster has read the files.
        for _ in 0..<100 {
            let on = try await admin.read { connection in
                try await connection.rows("SELECT current_setting('ssl')", logger: admin.logger).decode(String.self)
                    .array()
            }
            if on == ["on"] { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("The server did not turn TLS on (its log says why)")
    }

    /// The backend at `location`, opened again while it fails with UNAVAILABLE, 20 times at most. Each try is given
    /// 15 s: a postmaster still without TLS answers each connection of the pool with "no SSL", which the pool tries
    /// again until the connect timeout, ten minutes for the tests (a CI run spent them in one try).
    static func opened(_ location: PostgresLocation) async throws -> PostgresBackend {
        var location = location
        location.connectTimeout = .seconds(15)
        for _ in 1..<20 {
            do {
                return try await PostgresBackend.open(location)
            } catch let error as StoreError where error.code == .unavailable {
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        return try await PostgresBackend.open(location)
    }

    static func reset(_ admin: CarnetStorePostgres.PostgresDatabase) async throws {
        try await admin.read { connection in
            for statement in [
                "ALTER SYSTEM RESET ssl", "ALTER SYSTEM RESET ssl_cert_file", "ALTER SYSTEM RESET ssl_key_file",
                "SELECT pg_reload_conf()",
            ] {
                try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: admin.logger)
            }
        }
    }
}
