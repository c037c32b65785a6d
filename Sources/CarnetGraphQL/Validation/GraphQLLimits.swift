/// The documented limits on what one request may ask for, and the caches' sizes.
///
/// Exceeding a limit gives an error with its own `extensions.code` before anything executes.
public struct GraphQLLimits: Sendable, Hashable {
    /// Bytes in the query text. Code `DOCUMENT_TOO_LARGE`. Default 100,000.
    public var maxDocumentBytes = 100_000
    /// Lexical tokens in the query text. Code `TOO_MANY_TOKENS`. Default 15,000.
    public var maxTokens = 15_000
    /// Nesting of fields, through fragments (the standard introspection query needs 14). Code
    /// `MAX_DEPTH_EXCEEDED`. Default 16.
    public var maxDepth = 16
    /// Aliased fields in an operation, counted where fragments expand. Code `MAX_ALIASES_EXCEEDED`. Default 30.
    public var maxAliases = 30
    /// Fields at the root of an operation. Code `MAX_ROOT_FIELDS_EXCEEDED`. Default 20.
    public var maxRootFields = 20
    /// Records a query may return, GitHub-style: each list's page size multiplied through the lists above it.
    /// Code `MAX_NODES_EXCEEDED`. Default 100,000.
    public var maxNodes = 100_000
    /// Whether `__schema` and `__type` are served. Code `INTROSPECTION_DISABLED` when not. Default on.
    public var introspectionEnabled = true
    /// Validated documents kept, by query text. Default 1,000.
    public var documentCacheSize = 1_000
    /// Automatic persisted queries kept, by hash. Default 10,000.
    public var persistedQueryCacheSize = 10_000

    public init() {}
}
