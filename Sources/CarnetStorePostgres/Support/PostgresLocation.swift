import CarnetStore
import Foundation
import NIOSSL
import PostgresNIO

/// Where a Carnet database on PostgreSQL is, from a `postgres://` URL (`carnet serve --database`,
/// `CARNET_DATABASE_URL`): `postgres://user:password@host:port/database?sslmode=verify-full&sslrootcert=ca.pem`.
///
/// TLS follows libpq's `sslmode`: `disable`, `require` (encrypted, certificate verified against the CA when
/// `sslrootcert` is given, else the system's roots) and `verify-full` (the default: the certificate and the host
/// name verified). Unlike libpq, `require` never skips verification: a connection that is encrypted but
/// unauthenticated protects nothing from an active attacker.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Hashable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// A PEM file of the CA to verify the server with; `nil` for the system's roots.
    public var rootCertificatePath: String?
    /// The most connections this instance opens for reads and saves; queries that read in one snapshot hold up
    /// to ``snapshotPoolSize`` more.
    public var poolSize: Int
    /// The most connections held by queries' snapshots (half the pool, at least one), opened as they are needed.
    public var snapshotPoolSize: Int { max(1, poolSize / 2) }
    /// How long opening the backend waits for the database to answer before failing with `UNAVAILABLE`.
    public var connectTimeout: Duration = .seconds(10)

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .verifyFull, rootCertificatePath: String? = nil, poolSize: Int = 20
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
        self.poolSize = poolSize
    }

    /// Reads a `postgres://` or `postgresql://` URL. - Throws: ``StoreError`` `validationFailed` naming the part
    /// at fault (never the password).
    public init(url text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            ["postgres", "postgresql"].contains(scheme)
        else { throw StoreError(.validationFailed, "A database URL starts with postgres://.", keyPaths: ["url"]) }
        guard let host = components.host, !host.isEmpty else {
            throw StoreError(.validationFailed, "The database URL names no host.", keyPaths: ["url.host"])
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var location = PostgresLocation(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database.isEmpty ? (components.user ?? "postgres") : database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value {
                case "disable": location.tls = .disable
                case "require": location.tls = .require
                case "verify-full", "verify-ca": location.tls = .verifyFull
                default:
                    throw StoreError(
                        .validationFailed, "sslmode is disable, require or verify-full.", keyPaths: ["url.sslmode"])
                }
            case "sslrootcert": location.rootCertificatePath = item.value
            case "connect_timeout":
                guard let seconds = item.value.flatMap(Int.init), (1...600).contains(seconds) else {
                    throw StoreError(
                        .validationFailed, "connect_timeout is 1 to 600 seconds.", keyPaths: ["url.connect_timeout"])
                }
                location.connectTimeout = .seconds(seconds)
            case "pool_size", "pool_max_conns":
                guard let size = item.value.flatMap(Int.init), (2...1_000).contains(size) else {
                    // One connection listens for other instances' commits for as long as the backend is open.
                    throw StoreError(
                        .validationFailed, "pool_size is 2 to 1000 (one connection listens for commits).",
                        keyPaths: ["url.pool_size"])
                }
                location.poolSize = size
            default:
                throw StoreError(
                    .validationFailed, "The database URL has an unknown parameter.", keyPaths: ["url.\(item.name)"])
            }
        }
        self = location
    }

    /// The location without its password, for logs and messages.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)&pool_size=\(poolSize)"
    }

    /// postgres-nio's settings for this location. `lockTimeout` bounds how long a statement waits for a row lock
    /// (a save for its book's, held by a save on another instance) before failing with `UNAVAILABLE`.
    func clientConfiguration(lockTimeout: TimeInterval) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: try clientTLS())
        configuration.options.maximumConnections = poolSize
        configuration.options.connectTimeout = connectTimeout
        let milliseconds = Int(min(max(lockTimeout, 0.001), 3_600) * 1_000)
        configuration.options.additionalStartupParameters = [("lock_timeout", "\(milliseconds)")]
        return configuration
    }

    private func clientTLS() throws -> PostgresClient.Configuration.TLS {
        tlsConfiguration().map { .require($0) } ?? .disable
    }

    /// The TLS settings of connections, or `nil` without TLS.
    func tlsConfiguration() -> TLSConfiguration? {
        guard tls != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = tls == .verifyFull ? .fullVerification : .noHostnameVerification
        if let rootCertificatePath {
            configuration.trustRoots = .file(rootCertificatePath)
        }
        return configuration
    }
}
