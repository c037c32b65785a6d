// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Carnet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CarnetStore", targets: ["CarnetStore"]),
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
    ],
    targets: [
        // The record store: records, SQLite, save requests, history. GRDB only.
        .target(
            name: "CarnetStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings
        ),
        // The GraphQL schema, planner and executor onto the store.
        .target(
            name: "CarnetGraphQL",
            dependencies: [
                "CarnetStore", "CarnetVCard",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
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
        .target(name: "CarnetServer", dependencies: ["CarnetGraphQL"], swiftSettings: swiftSettings),
        .target(name: "CarnetVCard", dependencies: ["CarnetStore"], swiftSettings: swiftSettings),
        // The CLI; the only place that bootstraps logging.
        .executableTarget(
            name: "carnet",
            dependencies: [
                "CarnetStore", "CarnetServer", "CarnetVCard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Store benchmark (run it in release: `swift run -c release carnet-bench`).
        .executableTarget(
            name: "carnet-bench",
            dependencies: [
                "CarnetStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // GraphQL benchmark (release): Carnet's executor vs GraphQLSwift's and a hand-written baseline.
        .executableTarget(
            name: "carnet-graphql-bench",
            dependencies: [
                "CarnetGraphQL", "CarnetGraphQLReference", "CarnetStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // vCard benchmark (release): import and export of a 100,000-card file.
        .executableTarget(
            name: "carnet-vcard-bench", dependencies: ["CarnetStore", "CarnetVCard"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CarnetStoreTests",
            dependencies: ["CarnetStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CarnetGraphQLTests",
            dependencies: [
                "CarnetGraphQL", "CarnetStore", "CarnetGraphQLReference", .product(name: "GraphQL", package: "GraphQL"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CarnetServerTests", dependencies: ["CarnetServer"], swiftSettings: swiftSettings),
        .testTarget(name: "CarnetVCardTests", dependencies: ["CarnetVCard", "CarnetStore"], swiftSettings: swiftSettings),
    ]
)
