import CarnetGraphQL

/// The network service around the GraphQL layer (built by the server issue).
public enum CarnetServer {
    /// The API contract the server serves.
    public static var schemaSDL: String { CarnetSchema.printed }
}
