/// The documented limits on what one request may ask for, and the caches' sizes.
///
/// Exceeding a limit gives an error with its own `extensions.code` before anything executes.
public struct GraphQLLimits: Sendable, Hashable {
    /// Bytes in the query text. Code `DOCUMENT_TOO_LARGE`. Default 100,000.
    public var maxDocumentBytes = 100_000
    /// Lexical tokens in the query text, comments included. Code `TOO_MANY_TOKENS`. Default 15,000.
    public var maxTokens = 15_000
    /// Selection sets nested in the text, inline fragments included, checked before parsing so no recursive code
    /// sees a deeper document. Code `MAX_NESTING_EXCEEDED`. Default 64: four braces for every level `maxDepth`
    /// allows, room for inline fragments. The same limit holds with fragments expanded, checked before the
    /// validation rules, which walk fields through fragments recursively.
    public var maxSelectionNesting = 64
    /// Lists and input objects nested in a value literal or a variable's type, checked before parsing. Code
    /// `MAX_NESTING_EXCEEDED`. Default 7, the deepest value any argument of Carnet's schema accepts (a save's
    /// `{operations: [{addContact: {postalAddresses: [{value: {…}}]}}]}`), so no valid document is refused.
    public var maxValueNesting = 7
    /// Arrays and objects nested in a JSON request body, `variables` or a WebSocket message. Code
    /// `MAX_NESTING_EXCEEDED` (HTTP 400). Default 64.
    public var maxJSONNesting = 64
    /// Fragment spreads in an operation, counted where fragments expand (a fragment spread twice counts its own
    /// spreads twice): bounds the work chains and trees of fragments cause. Code `MAX_FRAGMENT_SPREADS_EXCEEDED`.
    /// Default 500.
    public var maxFragmentSpreads = 500
    /// Field comparisons the check that same-named fields merge may make (OverlappingFieldsCanBeMerged is
    /// quadratic or worse in crafted documents). Code `MAX_FIELD_MERGE_CHECKS_EXCEEDED`. Default 100,000.
    public var maxFieldMergeChecks = 100_000
    /// Validation errors reported for one document; the rest are counted in a last error. Default 100, as
    /// graphql-js's `maxErrors`.
    public var maxValidationErrors = 100
    /// How long one operation may execute. Checked between fields and batch loads (with the task's
    /// cancellation, so a client that goes away stops its request); fields not resolved by then fail with
    /// `MAX_EXECUTION_TIME_EXCEEDED`. Default 10 s.
    public var maxExecutionTime: Duration = .seconds(10)
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
    /// Bytes of one response's JSON, checked before each list item and each field with a selection as the response
    /// is written: the node limit counts records, not their size, and 5 aliases of a page of contacts with large
    /// images and their vCards made one 311-byte query hold 868 MB (an outside tester's find). The field or list
    /// that reaches it is null, with code `MAX_RESPONSE_BYTES_EXCEEDED`, and what it had written is dropped.
    /// Default 64 MiB.
    public var maxResponseBytes = 64 << 20
    /// Fields that read the whole address book on every call (`duplicateCandidates`), counted where fragments and
    /// aliases expand, so that one request cannot repeat a linear scan. Code `MAX_BOOK_SCANS_EXCEEDED`. Default 1.
    public var maxBookScans = 1
    /// `__schema` fields, counted where fragments and aliases expand: GraphQLSwift's executor, which answers
    /// them, takes about 0.2 s for a whole schema, so 20 aliases of one were 4 s of CPU for an 886-byte query (and
    /// a different query each time escapes the cache). Tools ask once. Code `MAX_INTROSPECTIONS_EXCEEDED`.
    /// Default 2.
    public var maxSchemaIntrospections = 2
    /// Whether `__schema` and `__type` are served. Code `INTROSPECTION_DISABLED` when not. Default on.
    public var introspectionEnabled = true
    /// Validated documents kept, by query text. Default 1,000.
    public var documentCacheSize = 1_000
    /// The query text those documents may hold in all (their syntax trees take several times as much). Default
    /// 16 MiB: 1,000 long documents (100 KB each) held over 1 GB.
    public var documentCacheBytes = 16 << 20
    /// Automatic persisted queries kept, by hash. Default 10,000.
    public var persistedQueryCacheSize = 10_000
    /// The query text they may hold in all. Default 32 MiB (10,000 registered 95 KB queries held 1.2 GB).
    public var persistedQueryCacheBytes = 32 << 20
    /// The introspection answers kept (64 at most) may hold in all. Default 16 MiB: one deep answer is megabytes.
    public var introspectionCacheBytes = 16 << 20

    public init() {}
}
