import CarnetStore
import Crypto
import Foundation

/// The request-independent parts of the GraphQL service: schema index, limits, caches.
final class GraphQLServiceCore: Sendable {
    let index: SchemaIndex
    let limits: GraphQLLimits
    let options: GraphQLOptions
    let preparer: DocumentPreparer
    let persistedQueries: LRUCache<String, String>
    let introspectionCache: LRUCache<String, [UInt8]>
    let unexpectedErrorHandler: @Sendable (any Error) -> Void

    init(
        limits: GraphQLLimits, options: GraphQLOptions, unexpectedErrorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        self.index = .shared
        self.limits = limits
        self.options = options
        self.preparer = DocumentPreparer(limits: limits)
        self.persistedQueries = LRUCache(
            capacity: limits.persistedQueryCacheSize, maxCost: limits.persistedQueryCacheBytes)
        self.introspectionCache = LRUCache(capacity: 64, maxCost: limits.introspectionCacheBytes)
        self.unexpectedErrorHandler = unexpectedErrorHandler
    }

    func reportUnexpected(_ error: any Error) { unexpectedErrorHandler(error) }

    /// Resolves the query text of a request, applying automatic persisted queries (`extensions.persistedQuery`).
    func queryText(_ request: GraphQLRequestBody) throws(GraphQLRequestError) -> String {
        // `null` is no persisted query, as an absent member is.
        guard let persisted = request.extensions["persistedQuery"], persisted != .null else {
            guard let query = request.query else {
                throw GraphQLRequestError.badRequest("The request has no query")
            }
            return query
        }
        guard case .object(let fields) = persisted else {
            throw GraphQLRequestError(
                .persistedQueryInvalid,
                [ResponseError(message: "extensions.persistedQuery must be an object.", code: .badRequest)])
        }
        guard fields["version"] == .int(1) else {
            throw GraphQLRequestError(
                .persistedQueryInvalid,
                [
                    ResponseError(
                        message: "Unsupported persisted query version: only version 1 is supported.",
                        code: .persistedQueryVersionNotSupported)
                ])
        }
        guard case .string(let hash)? = fields["sha256Hash"], hash.utf8.count == 64,
            hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw GraphQLRequestError(
                .persistedQueryInvalid,
                [
                    ResponseError(
                        message: "persistedQuery.sha256Hash must be 64 lowercase hexadecimal digits.", code: .badRequest
                    )
                ])
        }
        let key = request.persistedQueryScope + "\u{0}" + hash
        if let query = request.query {
            guard Self.sha256(query) == hash else {
                throw GraphQLRequestError(
                    .persistedQueryInvalid,
                    [
                        ResponseError(
                            message: "The provided sha256Hash does not match the query.",
                            code: .persistedQueryHashMismatch)
                    ])
            }
            persistedQueries.insert(query, for: key, cost: query.utf8.count)
            return query
        }
        guard let query = persistedQueries[key] else {
            throw GraphQLRequestError(
                .persistedQueryNotFound,
                [
                    ResponseError(
                        message: "PersistedQueryNotFound", code: .persistedQueryNotFound)
                ])
        }
        return query
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
