import GraphQL
import Synchronization

/// Turns query text into a ``PreparedDocument``: limits on size and tokens, parsing, the library's validation
/// rules, then the checks it leaves out and Carnet's limits. Results are cached by text, so a hit skips all of it.
final class DocumentPreparer: Sendable {
    let schema: GraphQLSchema
    let index: SchemaIndex
    let limits: GraphQLLimits
    let cache: LRUCache<DocumentText, Preparation>
    /// How many texts were parsed and validated (cache misses): lets tests see that a hit skips both.
    let preparedCount = Atomic<Int>(0)
    /// How many texts reached GraphQLSwift's parser: lets tests see that a refused shape never does.
    let parsedCount = Atomic<Int>(0)

    init(schema: GraphQLSchema = CarnetSchema.schema, index: SchemaIndex = .shared, limits: GraphQLLimits) {
        self.schema = schema
        self.index = index
        self.limits = limits
        self.cache = LRUCache(capacity: limits.documentCacheSize, maxCost: limits.documentCacheBytes)
    }

    func prepare(_ text: String) -> Preparation {
        let key = DocumentText(text)
        if let cached = cache[key] { return cached }
        let preparation = uncachedPrepare(text)
        cache.insert(preparation, for: key, cost: text.utf8.count)
        return preparation
    }

    private func uncachedPrepare(_ text: String) -> Preparation {
        preparedCount.add(1, ordering: .relaxed)
        if text.utf8.count > limits.maxDocumentBytes {
            return .failed(
                GraphQLRequestError(
                    .validationFailed,
                    [
                        ResponseError(
                            message:
                                "The document is \(text.utf8.count) bytes; the limit is \(limits.maxDocumentBytes).",
                            code: .documentTooLarge)
                    ]))
        }
        let bytes = Array(text.utf8)
        if let refusal = scan(bytes) { return .failed(refusal) }
        let rewrite: StringEscapes.Rewrite?
        do {
            rewrite = try StringEscapes.rewrite(bytes)
        } catch {
            return .failed(
                GraphQLRequestError(
                    .parseFailed,
                    [
                        ResponseError(
                            message: error.message, code: .parseFailed,
                            locations: [SourcePosition(utf8Offset: error.offset, in: bytes)])
                    ]))
        }
        // The parser reads the rewritten text: it must be within the limits too, whatever an escape became.
        if let rewritten = rewrite?.text, let refusal = scan(Array(rewritten.utf8), locate: false) {
            return .failed(refusal)
        }
        let source = DocumentSource(original: text, map: rewrite?.map ?? SourceMap())
        let body = rewrite?.text ?? text
        // GraphQLSwift gives each error its line and column as it makes it, with a regular expression over the
        // whole text: many errors in a long text cost their number times its length (14,000 unknown fields in
        // 87 KB took 10 s). A long text is checked first without locations; its errors are located by a second
        // pass only when that costs little, and a valid one is parsed again with locations for execution.
        if body.utf8.count > Self.locatedValidationBytes {
            let unlocated: Document
            switch parsed(body, source: source, noLocation: true) {
            case .failure(let error): return .failed(error)
            case .success(let document): unlocated = document
            }
            let errors = validationErrors(unlocated)
            // Each node an error names is a scan of the text (one error can name thousands: a repeated argument's
            // every occurrence). Errors that name no node (the limits') have no position to find: no second pass.
            let scans = errors.reduce(0) { $0 + $1.nodes.count }
            if !errors.isEmpty, scans > Self.locationScanBytes / body.utf8.count || scans == 0 {
                return .failed(refusal(errors, source))
            }
            if errors.isEmpty {
                switch parsed(body, source: source, noLocation: false) {
                case .failure(let error): return .failed(error)
                case .success(let document): return .ready(PreparedDocument(document: document, source: source))
                }
            }
        }
        let document: Document
        switch parsed(body, source: source, noLocation: false) {
        case .failure(let error): return .failed(error)
        case .success(let parsed): document = parsed
        }
        let errors = validationErrors(document)
        guard errors.isEmpty else { return .failed(refusal(errors, source)) }
        return .ready(PreparedDocument(document: document, source: source))
    }
}

extension DocumentPreparer {
    /// Texts longer than this are validated without locations first (``uncachedPrepare``): a text this long
    /// can hold about a thousand errors, each a scan of its 2 KB, a few milliseconds.
    static let locatedValidationBytes = 2_048
    /// How much text the errors of a long document may scan to be located (each error scans all of it).
    static let locationScanBytes = 1 << 20

    /// `body` parsed (counted in ``parsedCount``), or the syntax error at the client's position.
    func parsed(_ body: String, source: DocumentSource, noLocation: Bool) -> Result<Document, GraphQLRequestError> {
        parsedCount.add(1, ordering: .relaxed)
        do {
            return .success(try parse(source: Source(body: body, name: "GraphQL request"), noLocation: noLocation))
        } catch let error as GraphQLError {
            return .failure(
                GraphQLRequestError(.parseFailed, source.responseErrors([error], defaultCode: .parseFailed)))
        } catch {
            return .failure(
                GraphQLRequestError(
                    .parseFailed, [ResponseError(message: "The document could not be parsed.", code: .parseFailed)]))
        }
    }

    /// The library's validation rules, then the checks it leaves out and Carnet's limits (those only on a
    /// document the library finds valid).
    func validationErrors(_ document: Document) -> [GraphQLError] {
        var errors = UniqueDefinitionsRule().validate(document)
        if errors.isEmpty {
            errors = FragmentSpreadLimit(limit: limits.maxFragmentSpreads, maxNesting: limits.maxSelectionNesting)
                .validate(document)
        }
        if errors.isEmpty { errors = GraphQL.validate(schema: schema, ast: document, rules: specifiedRules) }
        if errors.isEmpty {
            let traversal = SelectionTraversal(schema: index, document: document)
            // One more conflict than the refusal lists is enough to say that more were left out.
            var overlapping = OverlappingFieldsRule(
                traversal: traversal, maxChecks: limits.maxFieldMergeChecks, maxErrors: limits.maxValidationErrors + 1)
            errors += overlapping.validate(document)
            errors += SingleFieldSubscriptionsRule(traversal: traversal).validate(document)
            errors += InputLiteralsRule(traversal: traversal).validate(document)
            errors += DocumentLimitsRule(traversal: traversal, limits: limits).validate(document)
            if !limits.introspectionEnabled { errors += IntrospectionRule(traversal: traversal).validate(document) }
        }
        return errors
    }

    /// Validation errors as the request's refusal: the first ``GraphQLLimits/maxValidationErrors``, then one that
    /// says the rest were left out.
    func refusal(_ errors: [GraphQLError], _ source: DocumentSource) -> GraphQLRequestError {
        var reported = source.responseErrors(
            Array(errors.prefix(limits.maxValidationErrors)), defaultCode: .validationFailed)
        if errors.count > limits.maxValidationErrors {
            reported.append(
                ResponseError(
                    message:
                        "The document has more than \(limits.maxValidationErrors) validation errors; the first \(limits.maxValidationErrors) are listed.",
                    code: .validationFailed))
        }
        return GraphQLRequestError(.validationFailed, reported)
    }

    /// The token and nesting limits, checked over the raw text before the recursive parser runs.
    /// - Parameter locate: whether `bytes` are the client's (so offsets in them are positions to report).
    func scan(_ bytes: [UInt8], locate: Bool = true) -> GraphQLRequestError? {
        let bounds = DocumentScanner.Bounds(
            maxTokens: limits.maxTokens, maxSelectionNesting: limits.maxSelectionNesting,
            maxValueNesting: limits.maxValueNesting)
        let error: ResponseError
        switch DocumentScanner.scan(bytes, bounds) {
        case nil:
            return nil
        case .tooManyTokens:
            error = ResponseError(
                message: "The document has more than \(limits.maxTokens) tokens.", code: .tooManyTokens)
        case .selectionsTooDeep(let offset):
            error = ResponseError(
                message: "Selection sets are nested more than \(limits.maxSelectionNesting) deep.",
                code: .nestingTooDeep,
                locations: locate ? [SourcePosition(utf8Offset: offset, in: bytes)] : [])
        case .valuesTooDeep(let offset):
            error = ResponseError(
                message: "Values or types are nested more than \(limits.maxValueNesting) deep.", code: .nestingTooDeep,
                locations: locate ? [SourcePosition(utf8Offset: offset, in: bytes)] : [])
        }
        return GraphQLRequestError(.validationFailed, [error])
    }
}
