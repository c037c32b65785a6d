import CarnetStore

/// Why a request produced no execution: the phases GraphQL-over-HTTP maps to status codes.
public struct GraphQLRequestError: Error, Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The request parameters are malformed (wrong JSON types, no query). HTTP 400.
        case badRequest
        /// The document does not parse. HTTP 400.
        case parseFailed
        /// The document fails validation or a limit (depth, aliases, tokens, ...). HTTP 400 (422 in the draft).
        case validationFailed
        /// No operation to run (unknown or ambiguous `operationName`). HTTP 400.
        case operationNotFound
        /// A variable does not coerce to its type. HTTP 400.
        case variableCoercionFailed
        /// The persisted query hash is unknown: send the query too. HTTP 200 with the error.
        case persistedQueryNotFound
        /// The persisted query is malformed or its hash does not match. HTTP 400.
        case persistedQueryInvalid
        /// The operation type is not allowed here (a mutation over GET, or no write permission). HTTP 405/403.
        case operationNotAllowed
    }

    public var kind: Kind
    public var errors: [ResponseError]

    public init(_ kind: Kind, _ errors: [ResponseError]) {
        self.kind = kind
        self.errors = errors
    }

    /// The errors as a JSON array.
    public var errorsJSON: [UInt8] {
        var writer = JSONWriter()
        writer.beginArray()
        for item in errors {
            writer.comma()
            item.write(to: &writer)
        }
        writer.endArray()
        return writer.bytes
    }

    static func badRequest(_ message: String) -> GraphQLRequestError {
        GraphQLRequestError(.badRequest, [ResponseError(message: message, code: .badRequest)])
    }

    /// JSON (a body, `variables`, a message) refused for its nesting: a bad request with its own code.
    public static func jsonTooDeep(_ what: String, _ limit: Int) -> GraphQLRequestError {
        GraphQLRequestError(
            .badRequest,
            [
                ResponseError(
                    message: "\(what) nests arrays and objects more than \(limit) deep.", code: .nestingTooDeep)
            ])
    }
}

/// One entry of a response's `errors`.
public struct ResponseError: Sendable, Hashable {
    public var message: String
    public var locations: [SourcePosition]
    public var path: [PathElement]
    public var code: ErrorCode
    /// More `extensions` members (for store errors: key paths, affected records, operation index).
    public var extensions: [String: JSONValue]

    public init(
        message: String, code: ErrorCode, locations: [SourcePosition] = [], path: [PathElement] = [],
        extensions: [String: JSONValue] = [:]
    ) {
        self.message = message
        self.code = code
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("message")
        writer.string(message)
        if !locations.isEmpty {
            writer.key("locations")
            writer.beginArray()
            for location in locations {
                writer.comma()
                writer.beginObject()
                writer.key("line")
                writer.int(location.line)
                writer.key("column")
                writer.int(location.column)
                writer.endObject()
            }
            writer.endArray()
        }
        if !path.isEmpty {
            writer.key("path")
            writer.beginArray()
            for element in path {
                writer.comma()
                switch element {
                case .key(let key): writer.string(key)
                case .index(let index): writer.int(index)
                }
            }
            writer.endArray()
        }
        writer.key("extensions")
        var members = extensions
        members["code"] = .string(code.rawValue)
        writer.value(.object(members))
        writer.endObject()
    }
}

/// A line and column in the document, from 1.
public struct SourcePosition: Sendable, Hashable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A step of a response path.
public enum PathElement: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// The stable codes in `extensions.code`.
public struct ErrorCode: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A store error's code, as it stands in `extensions.code`.
    public init(_ code: StoreError.Code) { rawValue = code.rawValue }

    public static let badRequest = ErrorCode(rawValue: "BAD_REQUEST")
    public static let parseFailed = ErrorCode(rawValue: "GRAPHQL_PARSE_FAILED")
    public static let validationFailed = ErrorCode(rawValue: "GRAPHQL_VALIDATION_FAILED")
    public static let operationNotFound = ErrorCode(rawValue: "OPERATION_NOT_FOUND")
    public static let badUserInput = ErrorCode(rawValue: "BAD_USER_INPUT")
    public static let persistedQueryNotFound = ErrorCode(rawValue: "PERSISTED_QUERY_NOT_FOUND")
    public static let persistedQueryHashMismatch = ErrorCode(rawValue: "PERSISTED_QUERY_HASH_MISMATCH")
    public static let persistedQueryVersionNotSupported = ErrorCode(rawValue: "PERSISTED_QUERY_VERSION_NOT_SUPPORTED")
    public static let introspectionDisabled = ErrorCode(rawValue: "INTROSPECTION_DISABLED")
    public static let documentTooLarge = ErrorCode(rawValue: "DOCUMENT_TOO_LARGE")
    public static let tooManyTokens = ErrorCode(rawValue: "TOO_MANY_TOKENS")
    public static let nestingTooDeep = ErrorCode(rawValue: "MAX_NESTING_EXCEEDED")
    public static let tooManyFragmentSpreads = ErrorCode(rawValue: "MAX_FRAGMENT_SPREADS_EXCEEDED")
    public static let tooManyFieldMergeChecks = ErrorCode(rawValue: "MAX_FIELD_MERGE_CHECKS_EXCEEDED")
    public static let executionTimeExceeded = ErrorCode(rawValue: "MAX_EXECUTION_TIME_EXCEEDED")
    public static let tooDeep = ErrorCode(rawValue: "MAX_DEPTH_EXCEEDED")
    public static let tooManyAliases = ErrorCode(rawValue: "MAX_ALIASES_EXCEEDED")
    public static let tooManyRootFields = ErrorCode(rawValue: "MAX_ROOT_FIELDS_EXCEEDED")
    public static let tooManyNodes = ErrorCode(rawValue: "MAX_NODES_EXCEEDED")
    public static let tooManyBookScans = ErrorCode(rawValue: "MAX_BOOK_SCANS_EXCEEDED")
    /// The response reached ``GraphQLLimits/maxResponseBytes``: ask for smaller pages or fewer large fields.
    public static let responseTooLarge = ErrorCode(rawValue: "MAX_RESPONSE_BYTES_EXCEEDED")
    public static let tooManyIntrospections = ErrorCode(rawValue: "MAX_INTROSPECTIONS_EXCEEDED")
    public static let operationNotAllowed = ErrorCode(rawValue: "OPERATION_NOT_ALLOWED")
    public static let forbidden = ErrorCode(rawValue: "FORBIDDEN")
    /// A strict vCard import refused for a card it could not read; `extensions.line` says where.
    public static let vCardMalformed = ErrorCode(rawValue: "VCARD_MALFORMED")
    public static let internalServerError = ErrorCode(rawValue: "INTERNAL_SERVER_ERROR")
    /// Over the token's request rate; `extensions.retryAfter` (seconds) says when to try again.
    public static let rateLimited = ErrorCode(rawValue: "RATE_LIMITED")
    /// The server is shutting down and starts no new operation.
    public static let shuttingDown = ErrorCode(rawValue: "SHUTTING_DOWN")
    /// A WebSocket already runs as many operations as it may; complete one first.
    public static let tooManyOperations = ErrorCode(rawValue: "MAX_OPERATIONS_EXCEEDED")

    // Refusals over HTTP before GraphQL runs, each with its status.
    /// 401: no token, or one that is unknown, expired, revoked or of a disabled principal.
    public static let unauthenticated = ErrorCode(rawValue: "UNAUTHENTICATED")
    /// 404: no such path.
    public static let notFound = ErrorCode(rawValue: "NOT_FOUND")
    /// 405, with `Allow`.
    public static let methodNotAllowed = ErrorCode(rawValue: "METHOD_NOT_ALLOWED")
    /// 406: no media type the client accepts.
    public static let notAcceptable = ErrorCode(rawValue: "NOT_ACCEPTABLE")
    /// 408: the request body took too long to arrive.
    public static let requestTimeout = ErrorCode(rawValue: "REQUEST_TIMEOUT")
    /// 413: the request body is over the limit.
    public static let requestTooLarge = ErrorCode(rawValue: "REQUEST_TOO_LARGE")
    /// 414: the query string of a GET is over the limit.
    public static let uriTooLong = ErrorCode(rawValue: "URI_TOO_LONG")
    /// 415: a body that is not JSON.
    public static let unsupportedMediaType = ErrorCode(rawValue: "UNSUPPORTED_MEDIA_TYPE")
    /// 426, with `Sec-WebSocket-Version: 13`: a WebSocket handshake of another version (RFC 6455 4.4).
    public static let upgradeRequired = ErrorCode(rawValue: "UPGRADE_REQUIRED")
    /// 431: the request line and headers are over the HTTP decoder's limit.
    public static let requestHeaderFieldsTooLarge = ErrorCode(rawValue: "REQUEST_HEADER_FIELDS_TOO_LARGE")
    /// 501: a request body in a transfer coding other than `chunked` (RFC 9112 6.1).
    public static let notImplemented = ErrorCode(rawValue: "NOT_IMPLEMENTED")
    /// 503 with Retry-After: the server holds as many built responses that clients have not read yet as it may
    /// (`ServerConfiguration.maxHeldResponseBytes`).
    public static let serverBusy = ErrorCode(rawValue: "SERVER_BUSY")
    /// 503 from `/readyz`: the store is not available.
    public static let notReady = ErrorCode(rawValue: "NOT_READY")
}
