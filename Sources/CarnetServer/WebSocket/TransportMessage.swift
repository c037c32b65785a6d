import CarnetGraphQL

/// A graphql-transport-ws message from the client, checked for shape. Anything else closes the socket with 4400.
enum ClientMessage {
    case connectionInit(payload: [String: JSONValue])
    case ping
    case pong
    case subscribe(id: String, payload: [String: JSONValue])
    case complete(id: String)

    struct Invalid: Error {
        var reason: String
    }

    /// - Parameter maxNesting: JSON nested deeper is refused before it is parsed further (close code 4400).
    init(text: String, maxNesting: Int) throws(Invalid) {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(text, maxDepth: maxNesting)
        } catch let failure as JSONParser.Failure where failure.isTooDeep {
            throw Invalid(reason: "Invalid message: nested more than \(maxNesting) deep")
        } catch let failure as JSONParser.Failure where failure.hasTooManyMarks {
            throw Invalid(reason: "Invalid message: \(failure.reason)")
        } catch {
            throw Invalid(reason: "Invalid message")
        }
        guard case .object(let message) = parsed else { throw Invalid(reason: "Invalid message") }
        guard case .string(let type)? = message["type"] else { throw Invalid(reason: "Invalid message: missing type") }
        func payload() throws(Invalid) -> [String: JSONValue] {
            switch message["payload"] {
            case nil, .null?: return [:]
            case .object(let payload)?: return payload
            default: throw Invalid(reason: "Invalid message: payload must be an object")
            }
        }
        func id() throws(Invalid) -> String {
            guard case .string(let id)? = message["id"], !id.isEmpty else {
                throw Invalid(reason: "Invalid message: missing id")
            }
            return id
        }
        switch type {
        case "connection_init": self = .connectionInit(payload: try payload())
        case "ping":
            _ = try payload()
            self = .ping
        case "pong":
            _ = try payload()
            self = .pong
        case "subscribe":
            let id = try id()
            guard case .object(let payload)? = message["payload"] else {
                throw Invalid(reason: "Invalid message: subscribe needs a payload")
            }
            try Self.checkSubscribePayload(payload)
            self = .subscribe(id: id, payload: payload)
        case "complete": self = .complete(id: try id())
        default: throw Invalid(reason: "Invalid message type \"\(type)\"")
        }
    }
}

extension ClientMessage {
    /// The protocol's shape of a subscribe payload, as graphql-ws's own server checks it (close 4400): `query` a
    /// string, `operationName` a string or null, `variables` and `extensions` objects or null. A query may be
    /// left out only for a persisted query's hash in `extensions`.
    static func checkSubscribePayload(_ payload: [String: JSONValue]) throws(Invalid) {
        func objectOrNull(_ key: String) -> Bool {
            switch payload[key] {
            case nil, .null?, .object?: true
            default: false
            }
        }
        for key in ["variables", "extensions"] where !objectOrNull(key) {
            throw Invalid(reason: "Invalid message: subscribe payload's \(key) must be an object")
        }
        switch payload["operationName"] {
        case nil, .null?, .string?: break
        default: throw Invalid(reason: "Invalid message: subscribe payload's operationName must be a string")
        }
        switch payload["query"] {
        case .string?: break
        case nil, .null?:
            guard case .object(let extensions)? = payload["extensions"], extensions["persistedQuery"] != nil else {
                throw Invalid(reason: "Invalid message: subscribe payload needs a query")
            }
        default: throw Invalid(reason: "Invalid message: subscribe payload's query must be a string")
        }
    }
}

/// Server messages, written as JSON text. Payloads arrive already encoded.
enum ServerMessage {
    static let connectionAck = #"{"type":"connection_ack"}"#
    static let pong = #"{"type":"pong"}"#

    static func next(_ id: String, _ payload: [UInt8]) -> String { envelope("next", id, payload) }
    static func error(_ id: String, _ errors: [UInt8]) -> String { envelope("error", id, errors) }
    static func complete(_ id: String) -> String {
        var writer = JSONWriter(capacity: 64)
        writer.raw(Array(#"{"type":"complete","id":"#.utf8))
        writer.string(id)
        writer.raw([UInt8(ascii: "}")])
        return writer.string
    }

    private static func envelope(_ type: String, _ id: String, _ payload: [UInt8]) -> String {
        var writer = JSONWriter(capacity: payload.count + 64)
        writer.raw(Array(#"{"type":""#.utf8) + Array(type.utf8) + Array(#"","id":"#.utf8))
        writer.string(id)
        writer.raw(Array(#","payload":"#.utf8))
        writer.raw(payload)
        writer.raw([UInt8(ascii: "}")])
        return writer.string
    }
}

/// The close codes of graphql-transport-ws.
enum CloseCode: UInt16 {
    case badRequest = 4400
    case unauthorized = 4401
    case forbidden = 4403
    case subprotocolNotAcceptable = 4406
    case initialisationTimeout = 4408
    case subscriberAlreadyExists = 4409
    case tooManyInitialisationRequests = 4429
    case internalServerError = 4500
}
