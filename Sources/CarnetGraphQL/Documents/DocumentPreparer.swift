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
        self.cache = LRUCache(capacity: limits.documentCacheSize)
    }

    func prepare(_ text: String) -> Preparation {
        let key = DocumentText(text)
        if let cached = cache[key] { return cached }
        let preparation = uncachedPrepare(text)
        cache.insert(preparation, for: key)
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
        let document: Document
        parsedCount.add(1, ordering: .relaxed)
        do {
            document = try parse(source: Source(body: rewrite?.text ?? text, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failed(GraphQLRequestError(.parseFailed, source.responseErrors([error], defaultCode: .parseFailed)))
        } catch {
            return .failed(
                GraphQLRequestError(
                    .parseFailed,
                    [
                        ResponseError(
                            message: "The document could not be parsed.", code: .parseFailed)
                    ]))
        }
        var errors = FragmentSpreadLimit(limit: limits.maxFragmentSpreads, maxNesting: limits.maxSelectionNesting)
            .validate(document)
        if errors.isEmpty { errors = GraphQL.validate(schema: schema, ast: document, rules: specifiedRules) }
        if errors.isEmpty {
            let traversal = SelectionTraversal(schema: index, document: document)
            var overlapping = OverlappingFieldsRule(traversal: traversal, maxChecks: limits.maxFieldMergeChecks)
            errors += overlapping.validate(document)
            errors += SingleFieldSubscriptionsRule(traversal: traversal).validate(document)
            errors += InputLiteralsRule(traversal: traversal).validate(document)
            errors += DocumentLimitsRule(traversal: traversal, limits: limits).validate(document)
            if !limits.introspectionEnabled { errors += IntrospectionRule(traversal: traversal).validate(document) }
        }
        guard errors.isEmpty else {
            return .failed(
                GraphQLRequestError(.validationFailed, source.responseErrors(errors, defaultCode: .validationFailed)))
        }
        return .ready(PreparedDocument(document: document, source: source))
    }
}

extension DocumentPreparer {
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
