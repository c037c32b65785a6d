import CarnetGraphQL

/// The network service around ``CarnetGraphQL`` (built by the server issue).
public enum CarnetServer {
    public static let version = CarnetGraphQL.version
}
