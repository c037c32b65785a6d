import CarnetGraphQL
import CarnetStore
import CarnetStoreSQLite
import Foundation
import Testing

/// A store and a GraphQL service over it, plus helpers to run documents and read results.
struct GraphQLFixture {
    let store: any ContactStore
    let service: GraphQLService

    init(limits: GraphQLLimits = GraphQLLimits(), configure: (inout StoreConfiguration) -> Void = { _ in }) throws {
        var configuration = StoreConfiguration()
        configure(&configuration)
        self.init(store: try SQLiteStore.inMemory(configuration: configuration), limits: limits)
    }

    /// A service over a store of any backend.
    init(store: any ContactStore, limits: GraphQLLimits = GraphQLLimits()) {
        self.store = store
        // The tests share two loaded cores, where an operation can wait longer than the default 10 s execution
        // budget without doing anything wrong; tests of the budget set it explicitly.
        var limits = limits
        if limits.maxExecutionTime == GraphQLLimits().maxExecutionTime {
            limits.maxExecutionTime = GraphQLLimits.unhurried.maxExecutionTime
        }
        service = GraphQLService(store: store, limits: limits)
    }

    /// Runs a document and returns the parsed response.
    @discardableResult
    func run(
        _ query: String, _ variables: [String: JSONValue] = [:], operationName: String? = nil,
        context: GraphQLRequestContext = GraphQLRequestContext()
    ) async throws -> JSONValue {
        let response = await service.execute(
            GraphQLRequestBody(query: query, operationName: operationName, variables: variables), context: context)
        return try JSONParser.parse(response.body)
    }

    /// Runs a document that must succeed and returns its `data`.
    func data(
        _ query: String, _ variables: [String: JSONValue] = [:], sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> JSONValue
    {
        let result = try await run(query, variables)
        #expect(result["errors"] == nil, "\(result)", sourceLocation: sourceLocation)
        return try #require(result["data"], sourceLocation: sourceLocation)
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }
    subscript(index: Int) -> JSONValue? { arrayValue.flatMap { index < $0.count ? $0[index] : nil } }

    /// The `extensions.code` of each error of a response, in order.
    var errorCodes: [String] {
        (self["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
    }

    /// Compact JSON with sorted keys, for readable expectations.
    var json: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.string
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension GraphQLLimits {
    /// The default limits with an execution budget of an hour: the tests share two loaded cores, where a save can
    /// wait past the real 10 s budget (a one-core run saw it) without anything being wrong. The budget's own tests
    /// set it to zero, which needs no clock to expire.
    static var unhurried: GraphQLLimits {
        var limits = GraphQLLimits()
        limits.maxExecutionTime = .seconds(3_600)
        return limits
    }
}
