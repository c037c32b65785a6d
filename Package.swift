// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Carnet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CarnetStore", targets: ["CarnetStore"]),
        .library(name: "CarnetStoreSQLite", targets: ["CarnetStoreSQLite"]),
        .library(name: "CarnetStorePostgres", targets: ["CarnetStorePostgres"]),
        .library(name: "CarnetGraphQL", targets: ["CarnetGraphQL"]),
        .library(name: "CarnetServer", targets: ["CarnetServer"]),
        .executable(name: "carnet", targets: ["carnet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // SQLite settings only C can make (sqlite3_config is variadic), against the system SQLite GRDB links.
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The record store, backend-neutral: the model, save requests, validation, the merge rules, history
        // coalescing and tokens, text folding, and the protocols the layers above call. No database here.
        .target(name: "CarnetStore", exclude: ["README.md"], swiftSettings: swiftSettings),
        // The embedded default backend: one SQLite file per address book plus a catalog. GRDB only (and the C
        // settings above).
        .target(
            name: "CarnetStoreSQLite",
            dependencies: [
                "CarnetStore", "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL backend, for several Carnet instances on one database: postgres-nio's PostgresClient.
        .target(
            name: "CarnetStorePostgres",
            dependencies: [
                "CarnetStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // The GraphQL schema, planner and executor onto the store.
        .target(
            name: "CarnetGraphQL",
            dependencies: [
                "CarnetStore", "CarnetVCard",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            exclude: ["README.md"],
            resources: [.embedInCode("Schema/carnet.graphql")],
            swiftSettings: swiftSettings
        ),
        // GraphQLSwift's executor over the store with plain resolvers: the reference that tests and the
        // benchmark compare Carnet's executor with. Not a product.
        .target(
            name: "CarnetGraphQLReference",
            dependencies: [
                "CarnetGraphQL", "CarnetStore", "CarnetVCard", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: swiftSettings
        ),
        // The network service (TLS, HTTP, WebSocket, auth).
        .target(
            name: "CarnetServer",
            dependencies: [
                "CarnetGraphQL", "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP2", package: "swift-nio-extras"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CarnetVCard", dependencies: ["CarnetStore"], exclude: ["README.md"], swiftSettings: swiftSettings),
        // The CLI; the only place that bootstraps logging.
        .executableTarget(
            name: "carnet",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres", "CarnetServer", "CarnetVCard",
                "CarnetGraphQL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the tests share: running a child process (the CLI, the test writer, the Python clients).
        .target(name: "CarnetTestSupport", path: "Tests/CarnetTestSupport", swiftSettings: swiftSettings),
        // A writer the durability tests run as a child process and kill mid-stream: test support, not a command of
        // the product.
        .executableTarget(
            name: "carnet-test-writer", dependencies: ["CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres"],
            path: "Tests/CarnetTestWriter",
            swiftSettings: swiftSettings),
        // The stores the store tests run against, one fixture for every backend.
        .target(
            name: "CarnetStoreTestSupport",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/CarnetStoreTestSupport", swiftSettings: swiftSettings),
        // The conformance suite: every behavioural store test, run against each backend through the protocols.
        .testTarget(
            name: "CarnetStoreTests",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres", "CarnetStoreTestSupport",
                "CarnetTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // The SQLite backend's own tests: its files, migrations, point reads, pool and errors.
        .testTarget(
            name: "CarnetStoreSQLiteTests",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetStoreTestSupport", "CarnetTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL backend's own tests: its URLs, errors, migrations and what holds across instances.
        .testTarget(
            name: "CarnetStorePostgresTests",
            dependencies: [
                "CarnetStore", "CarnetStorePostgres", "CarnetStoreSQLite", "CarnetStoreTestSupport",
                "CarnetTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CarnetGraphQLTests",
            dependencies: [
                "CarnetGraphQL", "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres", "CarnetGraphQLReference",
                "CarnetTestSupport", "CarnetStoreTestSupport",
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CarnetServerTests",
            dependencies: [
                "CarnetServer", "CarnetStore", "CarnetStoreSQLite", "CarnetGraphQL", "CarnetTestSupport",
                "CarnetStoreTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CarnetVCardTests",
            dependencies: [
                "CarnetVCard", "CarnetStore", "CarnetStoreSQLite", "CarnetTestSupport", "CarnetStoreTestSupport",
            ],
            swiftSettings: swiftSettings),
    ]
)

// `Benchmarks/CarnetBenchmarks` is ordo-one/benchmark's (its plugin runs every executable directly under
// `Benchmarks/`); the comparison tools sit in `Benchmarks/Tools/` so the plugin leaves them alone.
// The benchmarks build only when asked (`CARNET_BENCHMARKS=1`), as Hummingbird's do: they are 16% of the code and
// need release builds to mean anything, so an ordinary `swift build` or `swift test` skips them. BENCHMARKS.md
// gives the command for each goal.
if Context.environment["CARNET_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets += [
        // ordo-one/benchmark: wall clock, percentiles, allocations and baselines for the store, GraphQL and vCard
        // operations (`swift package benchmark`).
        .executableTarget(
            name: "CarnetBenchmarks",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetVCard", "CarnetGraphQL",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CarnetBenchmarks", swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The store against hand-written SQL on the same database file, at 10k, 100k and 1M contacts; and the same
        // store operations on SQLite and PostgreSQL from the same data (`--backends sqlite,postgres`).
        .executableTarget(
            name: "carnet-bench",
            dependencies: [
                "CarnetStore", "CarnetStoreSQLite", "CarnetStorePostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Tools/carnet-bench", swiftSettings: swiftSettings),
        // Carnet's executor against GraphQLSwift's and a hand-written baseline, with profiles for perf.
        .executableTarget(
            name: "carnet-graphql-bench",
            dependencies: [
                "CarnetGraphQL", "CarnetGraphQLReference", "CarnetStore", "CarnetStoreSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Tools/carnet-graphql-bench", swiftSettings: swiftSettings),
        // The server with a static route beside /graphql, for scripts/bench_server.py.
        .executableTarget(
            name: "carnet-server-bench",
            dependencies: [
                "CarnetServer", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/Tools/carnet-server-bench", swiftSettings: swiftSettings),
        // Many address books on one server: random books against one, cold books, memory, saves beside an import.
        .executableTarget(
            name: "carnet-books-bench",
            dependencies: [
                "CarnetServer", "CarnetStore", "CarnetStoreSQLite", "CarnetVCard",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/Tools/carnet-books-bench", swiftSettings: swiftSettings),
    ]
}
