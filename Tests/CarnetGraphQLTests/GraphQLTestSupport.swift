import CarnetGraphQL
import CarnetStore

/// Shared helpers for the GraphQL layer's tests (the GraphQL issue fills this target).
enum GraphQLTestSupport {
    static func makeStore() throws -> CarnetStore { try CarnetStore.inMemory() }
}
