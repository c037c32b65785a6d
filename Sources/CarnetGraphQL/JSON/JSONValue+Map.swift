import GraphQL
import OrderedCollections

extension Map {
    /// GraphQLSwift's value for a JSON value: variables handed to its executor (introspection, and the reference
    /// executor the tests compare with). Object members in name order, so equal values give equal maps.
    public init(_ value: JSONValue) {
        self =
            switch value {
            case .null: .null
            case .bool(let b): .bool(b)
            case .int(let i): .number(Number(i))
            case .double(let d): .number(Number(d))
            case .string(let s): .string(s)
            case .array(let items): .array(items.map(Map.init))
            case .object(let fields):
                .dictionary(
                    OrderedDictionary(
                        uniqueKeysWithValues: fields.sorted { $0.key < $1.key }.map { ($0.key, Map($0.value)) }))
            }
    }
}

extension JSONValue {
    /// The JSON value of one of GraphQLSwift's values (the schema's default values): whole numbers within 10^15 as
    /// integers, the rest as doubles.
    init(_ map: Map) {
        self =
            switch map {
            case .undefined, .null: .null
            case .bool(let value): .bool(value)
            case .number(let number):
                number.doubleValue.rounded() == number.doubleValue && abs(number.doubleValue) < 1e15
                    ? .int(number.intValue) : .double(number.doubleValue)
            case .string(let value): .string(value)
            case .array(let items): .array(items.map(JSONValue.init))
            case .dictionary(let fields):
                .object(
                    Dictionary(fields.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { first, _ in first }))
            }
    }
}
