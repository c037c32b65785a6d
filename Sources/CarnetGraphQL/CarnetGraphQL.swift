import CarnetStore

/// The GraphQL layer over ``CarnetStore``: schema, planner and executor (built by the GraphQL issue).
public enum CarnetGraphQL {
    /// The schema version this layer serves.
    public static let version = "0.1.0"
}
