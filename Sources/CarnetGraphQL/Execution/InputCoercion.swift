import GraphQL

/// Input coercion as the spec defines it, for variables and for argument values. The result keeps the difference
/// between a field that is absent and one that is null, which partial updates depend on.
struct InputCoercion {
    let schema: SchemaIndex

    struct Failure: Error {
        var message: String
    }

    /// Coerces a JSON value to an input type. - Throws: ``Failure`` with the reason.
    func coerce(_ value: JSONValue, to type: TypeRef) throws(Failure) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            guard value != .null else {
                throw Failure(message: "Expected non-nullable type \"\(type)\" not to be null.")
            }
            return try coerce(value, to: inner)
        case .list(let inner):
            if value == .null { return .null }
            if case .array(let items) = value {
                var result: [JSONValue] = []
                result.reserveCapacity(items.count)
                for item in items { result.append(try coerce(item, to: inner)) }
                return .array(result)
            }
            return .array([try coerce(value, to: inner)])
        case .named(let name):
            if value == .null { return .null }
            return try coerceNamed(value, name)
        }
    }

    private func coerceNamed(_ value: JSONValue, _ name: String) throws(Failure) -> JSONValue {
        switch schema.types[name] {
        case .inputObject(let fields, let isOneOf)?:
            guard case .object(let given) = value else {
                throw Failure(message: "Expected type \"\(name)\" to be an object.")
            }
            for key in given.keys where !fields.contains(where: { $0.name == key }) {
                throw Failure(message: "Field \"\(key)\" is not defined by type \"\(name)\".")
            }
            var result: [String: JSONValue] = [:]
            for field in fields {
                if let fieldValue = given[field.name] {
                    do {
                        result[field.name] = try coerce(fieldValue, to: field.type)
                    } catch {
                        throw Failure(message: "At \"\(name).\(field.name)\": \(error.message)")
                    }
                } else if let defaultValue = field.defaultValue {
                    result[field.name] = defaultValue
                } else if field.type.isNonNull {
                    throw Failure(
                        message: "Field \"\(name).\(field.name)\" of required type \"\(field.type)\" was not provided.")
                }
            }
            if isOneOf {
                guard result.count == 1, let only = result.first else {
                    throw Failure(message: "Exactly one key must be specified for OneOf type \"\(name)\".")
                }
                if only.value == .null { throw Failure(message: "Field \"\(only.key)\" must be non-null.") }
            }
            return .object(result)
        case .enumeration(let values)?:
            guard case .string(let text) = value, values.contains(text) else {
                throw Failure(message: "Enum \"\(name)\" cannot represent value: \(value.graphQLDescription)")
            }
            return value
        default:
            return try coerceScalar(value, name)
        }
    }

    private func coerceScalar(_ value: JSONValue, _ name: String) throws(Failure) -> JSONValue {
        switch (name, value) {
        case ("Int", .int(let int)) where Int(Int32.min)...Int(Int32.max) ~= int:
            return value
        case ("Int", .double(let double))
        where double.rounded() == double && Double(Int32.min)...Double(Int32.max) ~= double:
            return .int(Int(double))
        case ("Int", _):
            throw Failure(message: "Int cannot represent non 32-bit signed integer value: \(value.graphQLDescription)")
        case ("Float", .int(let int)):
            return .double(Double(int))
        case ("Float", .double):
            return value
        case ("Float", _):
            throw Failure(message: "Float cannot represent non numeric value: \(value.graphQLDescription)")
        case ("Boolean", .bool):
            return value
        case ("Boolean", _):
            throw Failure(message: "Boolean cannot represent a non boolean value: \(value.graphQLDescription)")
        case ("ID", .string), ("String", .string), ("DateTime", .string), ("Base64", .string):
            return value
        case ("ID", .int(let int)):
            return .string(String(int))
        // JSON does not tell 7.0 from 7: an integral number is an integer (as Int above), however large. One past
        // Int's range arrives as a Double, written out as graphql-js writes it (its shortest digits, then zeros):
        // such an ID was refused while the same literal passed validation (an outside tester's find).
        case ("ID", .double(let double)) where double.isFinite && double.rounded() == double:
            return .string(Self.integerText(double))
        case ("ID", _):
            throw Failure(message: "ID cannot represent value: \(value.graphQLDescription)")
        default:
            throw Failure(message: "\(name) cannot represent a non string value: \(value.graphQLDescription)")
        }
    }

    /// An integral Double's decimal text: its shortest round-trip digits followed by zeros ("1.5e+20" is
    /// "150000000000000000000").
    static func integerText(_ value: Double) -> String {
        if abs(value) < 1e15 { return String(Int(value)) }
        let text = "\(value)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: e)...])
        else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        let mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa[...]
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? ""
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = (whole + fraction).drop { $0 == "0" }
        let zeros = max(0, exponent - fraction.count)
        return (negative ? "-" : "") + digits + String(repeating: "0", count: zeros)
    }

    /// A literal from the document as a JSON value, variables substituted. Object fields and list items whose
    /// variable is not provided are left out, as the spec says.
    func value(of node: any Value, variables: [String: JSONValue]) -> JSONValue? {
        Self.value(of: node, variables: variables)
    }

    /// See ``value(of:variables:)``; the schema plays no part.
    static func value(of node: any Value, variables: [String: JSONValue]) -> JSONValue? {
        switch node {
        case let variable as Variable: return variables[variable.name.value]
        case let int as IntValue: return Int(int.value).map(JSONValue.int) ?? .double(Double(int.value) ?? 0)
        case let float as FloatValue: return .double(Double(float.value) ?? 0)
        case let string as StringValue: return .string(string.value)
        case let bool as BooleanValue: return .bool(bool.value)
        case is NullValue: return .null
        case let enumValue as EnumValue: return .string(enumValue.value)
        case let list as ListValue: return .array(list.values.map { value(of: $0, variables: variables) ?? .null })
        case let object as ObjectValue:
            var fields: [String: JSONValue] = [:]
            for field in object.fields {
                if let fieldValue = value(of: field.value, variables: variables) {
                    fields[field.name.value] = fieldValue
                }
            }
            return .object(fields)
        default: return nil
        }
    }
}
