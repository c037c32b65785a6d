import CarnetGraphQL
import CarnetStore
import Foundation

/// Everything `buildApplication` needs to know, with the defaults of `carnet serve`.
public struct ServerConfiguration: Sendable {
    /// Where the SQLite file and the development certificates live.
    public var dataDirectory: String = "carnet-data"
    public var host: String = "127.0.0.1"
    /// 0 picks a free port (tests); the bound port is reported by `onServerRunning`.
    public var port: Int = 8443
    public var transport: Transport = .developmentCertificate

    /// Origins browsers may call from (CORS); `*` allows any. Empty: no CORS headers.
    public var allowedOrigins: [String] = []
    /// The largest request body (and GET query string) accepted; larger ones get 413 (414) before parsing.
    public var maxBodyBytes: Int = 1 << 20
    /// How long a request may take from its head to the end of its body before 408 (on every route, HTTP/1.1 and
    /// each HTTP/2 stream).
    public var bodyTimeout: Duration = .seconds(10)
    /// Connections with no traffic for this long are closed (slow or stuck clients).
    public var idleTimeout: Duration = .seconds(60)
    /// A connection whose writes make no progress for this long is closed (``WriteStallTimeout``): its client reads
    /// nothing, and the answers it holds count against ``maxHeldResponseBytes``. Long, because the kernel tells of
    /// progress only once a third of a full send buffer (up to 4 MiB) has gone: a client reading steadily at
    /// 8 KiB/s goes minutes without any.
    public var writeStallTimeout: Duration = .seconds(300)
    /// How often WebSocket clients are pinged (``WebSocketKeepAlive``); one that sends nothing for
    /// ``writeStallTimeout`` is closed.
    public var webSocketPingInterval: Duration = .seconds(15)
    /// A TLS connection is closed unless its handshake and its first request head (HTTP/1.1), or its choice of
    /// HTTP/2, arrive within this of its opening.
    public var firstRequestTimeout: Duration = .seconds(10)
    /// Connections open at once; one more is closed as soon as it is accepted. `nil` (the default) is what the
    /// process's open-file limit leaves after the books' share (`FileDescriptorBudget.forConnections`).
    public var maxConnections: Int?
    /// Requests per second each token may make on average; 0 turns the limit off.
    public var rateLimitPerSecond: Double = 200
    /// How many requests a token may make at once above the average rate.
    public var rateLimitBurst: Int = 400
    /// How long a new WebSocket may take to send `connection_init` before it is closed with 4408 (graphql-ws's
    /// 3 s).
    public var webSocketInitTimeout: Duration = .seconds(3)
    /// Operations (subscriptions included) one WebSocket may run at once; one more gets an error message
    /// (`MAX_OPERATIONS_EXCEEDED`) and the socket stays open.
    public var maxOperationsPerSocket: Int = 100
    /// Subscriptions one principal may hold open at once, across all its sockets and tokens; one more gets an
    /// error message (`MAX_OPERATIONS_EXCEEDED`, `maxSubscriptionsPerPrincipal` in its extensions). Every
    /// subscription costs a payload per commit of its book, so this bounds what one principal adds to each save.
    public var maxSubscriptionsPerPrincipal: Int = 500
    /// Of those, the queries and mutations that run at once; the others wait for their turn, having built no
    /// answer yet (a client that reads none of them holds this many answers, not one per operation).
    public var maxRunningRequestsPerSocket: Int = 4
    /// The streams an HTTP/2 client may have open at once (`SETTINGS_MAX_CONCURRENT_STREAMS`, announced once the
    /// connection is up): a client that reads none of its answers holds this many, as a WebSocket holds
    /// ``maxRunningRequestsPerSocket``. Hummingbird announces 100 first.
    public var maxConcurrentHTTP2Streams: Int = 8
    /// The most bytes a request's head may have (request line or pseudo-headers, and headers): HTTP/1.1's decoder
    /// answers more with 431; HTTP/2 announces it (`SETTINGS_MAX_HEADER_LIST_SIZE`) once the connection is up,
    /// where NIO announces 16 KiB first and ends the connection past it. So a GET's long query string is the same
    /// request over both.
    public var maxRequestHeadBytes: Int = 80 * 1024
    /// The bytes of GraphQL responses, over HTTP and WebSocket, that the server holds while it builds them and
    /// until their clients read them, across every connection; past it a query is cut short and a request whose
    /// answer would be held too gets 503 `SERVER_BUSY` with Retry-After (one answer alone always passes). Bounds
    /// what clients that ask for large answers at once, or ask and never read, can make the server hold.
    public var maxHeldResponseBytes: Int = 256 << 20
    /// How long a revoked token may still be honoured from the cache.
    public var tokenCacheLifetime: Duration = .seconds(2)
    /// How long graceful shutdown waits for in-flight operations before closing sockets anyway.
    public var shutdownGracePeriod: Duration = .seconds(10)
    public var graphQLLimits: GraphQLLimits = GraphQLLimits()
    public var graphQLOptions: GraphQLOptions = GraphQLOptions()
    /// How the store behind the service is opened (history retention, busy timeout, caches).
    public var storeConfiguration: StoreConfiguration = StoreConfiguration()
    /// How many address books stay open when idle, at most; more are opened while in use. `nil` (the default) is
    /// `BookStores.defaultCapacity`, fewer if the process's open-file limit (less a reserve) does not allow it.
    public var openBooks: Int?
    /// A `postgres://` URL: the catalog and books live in that PostgreSQL database (shared by every instance given
    /// it) instead of the data folder's SQLite files. The data folder still holds the development certificates.
    public var databaseURL: String?

    /// How the listener secures connections.
    public enum Transport: Sendable, Hashable {
        /// TLS with a development CA and a localhost certificate, created in the data folder on first start.
        case developmentCertificate
        /// TLS with a certificate chain and private key from PEM files.
        case certificateFiles(chain: String, privateKey: String)
        /// Plain HTTP/1.1 (with WebSocket), for deployments behind a TLS-terminating proxy.
        case plainHTTP
    }

    public init() {}

    /// The folder of the generated development certificates.
    public var certificateDirectory: String { (dataDirectory as NSString).appendingPathComponent("tls") }
    /// The development CA clients verify the server with, once `carnet serve` has made it.
    public var developmentCAPath: String {
        (certificateDirectory as NSString).appendingPathComponent(DevelopmentCertificates.caFileName)
    }
}
