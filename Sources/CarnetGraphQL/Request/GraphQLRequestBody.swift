import CarnetStore

/// A GraphQL-over-HTTP request's parameters: `query`, `operationName`, `variables`, `extensions`.
public struct GraphQLRequestBody: Sendable, Hashable {
    /// The document; may be absent when `extensions.persistedQuery` names a stored one.
    public var query: String?
    public var operationName: String?
    public var variables: [String: JSONValue]
    public var extensions: [String: JSONValue]
    /// Whose persisted queries (`extensions.persistedQuery`) the request may use: the server sets its principal, so
    /// that one principal cannot learn, by its hash, the exact text of a query another has sent (a search for an
    /// email address, say). Not part of the request's JSON.
    public var persistedQueryScope = ""

    public init(
        query: String?, operationName: String? = nil, variables: [String: JSONValue] = [:],
        extensions: [String: JSONValue] = [:]
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
    }

    /// Reads the parameters from a parsed JSON body. Unknown members are ignored; `null` means absent.
    /// - Throws: ``GraphQLRequestError`` (`BAD_REQUEST`) when a parameter has the wrong JSON type.
    public init(json: JSONValue) throws(GraphQLRequestError) {
        guard case .object(let body) = json else {
            throw .badRequest("The request body must be a JSON object")
        }
        self.init(
            query: try Self.string(body["query"], "query"),
            operationName: try Self.string(body["operationName"], "operationName"),
            variables: try Self.object(body["variables"], "variables"),
            extensions: try Self.object(body["extensions"], "extensions"))
    }

    /// Reads the parameters of a GET request's query string, where `variables` and `extensions` are JSON text
    /// and an empty value means absent. JSON nested deeper than `maxJSONNesting` is refused with
    /// `MAX_NESTING_EXCEEDED`.
    public init(queryItems: [String: String], maxJSONNesting: Int = GraphQLLimits().maxJSONNesting)
        throws(GraphQLRequestError)
    {
        func json(_ name: String) throws(GraphQLRequestError) -> [String: JSONValue] {
            guard let text = queryItems[name], !text.isEmpty else { return [:] }
            let value: JSONValue
            do {
                value = try JSONParser.parse(text, maxDepth: maxJSONNesting)
            } catch let failure as JSONParser.Failure where failure.isTooDeep {
                throw .jsonTooDeep(name, maxJSONNesting)
            } catch let failure as JSONParser.Failure where failure.hasTooManyMarks {
                throw .badRequest("\(name): \(failure.reason)")
            } catch {
                throw .badRequest("\(name) is not valid JSON")
            }
            return try Self.object(value, name)
        }
        // The JSON parameters are checked by the parser; these two are text as they stand.
        for name in ["query", "operationName"] where queryItems[name].map(CombiningMarks.exceedsRun) == true {
            throw .badRequest("\(name) holds more than \(CombiningMarks.maxRun) combining marks in a row")
        }
        self.init(
            query: queryItems["query"].flatMap { $0.isEmpty ? nil : $0 },
            operationName: queryItems["operationName"].flatMap { $0.isEmpty ? nil : $0 },
            variables: try json("variables"), extensions: try json("extensions"))
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(GraphQLRequestError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .badRequest("\(name) must be a string")
        }
    }

    private static func object(_ value: JSONValue?, _ name: String) throws(GraphQLRequestError) -> [String: JSONValue] {
        switch value {
        case nil, .null?: return [:]
        case .object(let fields)?: return fields
        default: throw .badRequest("\(name) must be an object")
        }
    }
}
