/// A JSON value as clients send it: request bodies, variables, extensions.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var intValue: Int? { if case .int(let i) = self { i } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var isNull: Bool { self == .null }

    /// The value as GraphQL error messages quote it.
    var graphQLDescription: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.string
    }
}

extension JSONWriter {
    /// Writes a JSON value (object keys sorted, so output is deterministic).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items {
                comma()
                self.value(item)
            }
            endArray()
        case .object(let fields):
            beginObject()
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                self.key(key)
                self.value(value)
            }
            endObject()
        }
    }
}
