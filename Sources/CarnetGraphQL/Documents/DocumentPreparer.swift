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
            return .failed(GraphQLRequestError(.validationFailed, [ResponseError(
                message: "The document is \(text.utf8.count) bytes; the limit is \(limits.maxDocumentBytes).",
                code: .documentTooLarge)]))
        }
        if TokenCounter.count(text, limit: limits.maxTokens) == nil {
            return .failed(GraphQLRequestError(.validationFailed, [ResponseError(
                message: "The document has more than \(limits.maxTokens) tokens.", code: .tooManyTokens)]))
        }
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failed(GraphQLRequestError(.parseFailed, [ResponseError(error, defaultCode: .parseFailed)]))
        } catch {
            return .failed(GraphQLRequestError(.parseFailed, [ResponseError(message: "\(error)", code: .parseFailed)]))
        }
        var errors = GraphQL.validate(schema: schema, ast: document, rules: specifiedRules)
        if errors.isEmpty {
            let traversal = SelectionTraversal(schema: index, document: document)
            errors += OverlappingFieldsRule(traversal: traversal).validate(document)
            errors += SingleFieldSubscriptionsRule(traversal: traversal).validate(document)
            errors += OneOfInputRule(traversal: traversal).validate(document)
            errors += DocumentLimitsRule(traversal: traversal, limits: limits).validate(document)
            if !limits.introspectionEnabled { errors += IntrospectionRule(traversal: traversal).validate(document) }
        }
        guard errors.isEmpty else {
            return .failed(GraphQLRequestError(.validationFailed, errors.map { ResponseError($0, defaultCode: .validationFailed) }))
        }
        return .ready(PreparedDocument(document: document))
    }
}

/// Refuses `__schema` and `__type` when introspection is off (`__typename` stays).
struct IntrospectionRule {
    let traversal: SelectionTraversal

    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        var seen = Set<String>()
        func visit(_ selectionSet: SelectionSet, _ type: String) {
            guard seen.insert("\(ObjectIdentifier(selectionSet))|\(type)").inserted else { return }
            for field in traversal.collectFields(selectionSet, parentType: type) {
                if field.node.name.value == "__schema" || field.node.name.value == "__type" {
                    errors.append(.validation(
                        "GraphQL introspection is not allowed here, but the query contained \(field.node.name.value).",
                        [field.node], code: .introspectionDisabled))
                } else if let inner = field.node.selectionSet, let info = field.info {
                    visit(inner, info.type.namedType)
                }
            }
        }
        for (selectionSet, type) in traversal.roots(document) { visit(selectionSet, type) }
        return errors
    }
}
