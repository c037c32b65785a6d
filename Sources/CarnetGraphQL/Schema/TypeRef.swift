/// A type reference as fields and arguments declare it: `[Contact!]!`.
indirect enum TypeRef: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    case list(TypeRef)
    case nonNull(TypeRef)

    var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    var nullable: TypeRef { if case .nonNull(let inner) = self { inner } else { self } }

    var description: String {
        switch self {
        case .named(let name): name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }
}

/// A field of an object or interface type.
struct FieldInfo: Sendable {
    let name: String
    let type: TypeRef
    let arguments: [InputValueInfo]
}

/// An argument or input object field.
struct InputValueInfo: Sendable {
    let name: String
    let type: TypeRef
    let defaultValue: JSONValue?
}

/// What a named type is.
enum NamedTypeInfo: Sendable {
    case object(fields: [String: FieldInfo], interfaces: [String])
    case interface(fields: [String: FieldInfo], possibleTypes: [String])
    case union(possibleTypes: [String])
    case enumeration(values: Set<String>)
    case inputObject(fields: [InputValueInfo], isOneOf: Bool)
    case scalar

    var isComposite: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }

    var isInput: Bool {
        switch self {
        case .inputObject, .enumeration, .scalar: true
        default: false
        }
    }

    /// The concrete types a value of this type can have.
    func possibleTypes(named name: String) -> [String] {
        switch self {
        case .object: [name]
        case .interface(_, let types), .union(let types): types
        default: []
        }
    }

    func field(_ name: String) -> FieldInfo? {
        switch self {
        case .object(let fields, _), .interface(let fields, _): fields[name]
        default: nil
        }
    }
}
