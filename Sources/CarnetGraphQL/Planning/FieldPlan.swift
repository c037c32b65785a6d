import GraphQL

/// One field to execute on one object type: its response key, coerced arguments and what to select below it.
/// Built per request from the validated document and the variables; the executor switches on ``code``.
final class FieldPlan: Sendable {
    /// Unique within the request; keys the per-field caches of batched loads.
    let id: Int
    let responseKey: String
    /// `"responseKey":`, ready to append.
    let quotedKey: [UInt8]
    let name: String
    /// The object type the field belongs to.
    let objectType: String
    /// The field's number in its type's field enum (``FieldCodes``); -1 for `__typename` and unknown fields.
    let code: Int
    /// The arguments: known at planning when the document spells them out, bound per request when they use
    /// variables (plans are cached across requests).
    let arguments: ArgumentSource
    /// The document's field nodes merged into this plan (for error locations).
    let nodes: [Field]
    let type: TypeRef
    /// For fields of object, interface or union type.
    let selection: SelectionPlan?
    /// Whether this field or one below it returns a page or a list whose size ``NodeLimit`` estimates.
    let estimatesNodes: Bool
    /// For the plan standing alone for a selection set that could not be collected on its object type (a null
    /// `@skip`/`@include` condition): the error every object of that type fails with.
    let collectionFailure: CollectionFailure?

    init(
        id: Int, responseKey: String, name: String, code: Int, arguments: ArgumentSource, nodes: [Field], type: TypeRef,
        selection: SelectionPlan?, objectType: String, collectionFailure: CollectionFailure? = nil
    ) {
        self.id = id
        self.responseKey = responseKey
        var writer = JSONWriter(capacity: responseKey.utf8.count + 3)
        writer.string(responseKey)
        self.quotedKey = writer.bytes + [UInt8(ascii: ":")]
        self.name = name
        self.objectType = objectType
        self.code = code
        self.arguments = arguments
        self.nodes = nodes
        self.type = type
        self.selection = selection
        self.collectionFailure = collectionFailure
        self.estimatesNodes =
            NodeLimit.estimates(name, on: objectType)
            || (selection?.byType.values.contains { $0.contains(where: \.estimatesNodes) } ?? false)
    }

    var isTypename: Bool { name == "__typename" }

    /// The plan of a selection set that could not be collected on `objectType`: writers meet it as a field they do
    /// not know (``Executor/otherField(_:_:)``), and the object fails.
    static func failing(_ failure: CollectionFailure, objectType: String, id: Int) -> FieldPlan {
        FieldPlan(
            id: id, responseKey: "", name: "", code: -1, arguments: .resolved(.none, nil), nodes: [],
            type: .nonNull(.named(objectType)), selection: nil, objectType: objectType, collectionFailure: failure)
    }

}

/// Where a field's argument values come from.
enum ArgumentSource: Sendable {
    /// Coerced once, at planning (or the error they gave).
    case resolved(ArgumentValues, FieldError?)
    /// Coerced per request, from the binding's sources and the request's variables.
    case bound(ArgumentBinding)
}

/// A field's arguments as the document gives them, each argument's source worked out once (at planning): binding
/// them then reads a variable or takes a literal instead of walking the syntax tree (dynamic casts and copies of
/// its nodes) on every request. A class, so that reading a plan's arguments retains one reference.
final class ArgumentBinding: Sendable {
    let info: FieldInfo
    /// One per argument of ``info``, in its order.
    let sources: [ArgumentValueSource]

    init(_ node: Field, _ info: FieldInfo) {
        self.info = info
        sources = info.arguments.map { argument in
            guard let value = node.arguments.first(where: { $0.name.value == argument.name })?.value else {
                return .absent
            }
            if let variable = value as? Variable { return .variable(variable.name.value) }
            if Planner.usesVariables(value) { return .literal(value) }
            return .constant(InputCoercion.value(of: value, variables: [:]))
        }
    }

    /// Whether any argument reads a variable, so its values differ between requests.
    var usesVariables: Bool {
        sources.contains {
            switch $0 {
            case .variable, .literal: true
            case .absent, .constant: false
            }
        }
    }
}

/// Where one argument's value comes from.
enum ArgumentValueSource: Sendable {
    /// Not in the document: the default applies.
    case absent
    /// `$name`: the variable's value, if provided.
    case variable(String)
    /// A literal without variables, already converted.
    case constant(JSONValue?)
    /// A list or object literal with variables inside.
    case literal(any Value)
}

/// A field's coerced argument values.
struct ArgumentValues: Sendable {
    let values: [String: JSONValue]

    static let none = ArgumentValues(values: [:])

    subscript(_ argument: String) -> JSONValue? { values[argument] }

    func string(_ argument: String) -> String? { values[argument]?.stringValue }

    func int(_ argument: String) -> Int? {
        if case .int(let value)? = values[argument] { return value }
        return nil
    }

    func bool(_ argument: String) -> Bool? {
        if case .bool(let value)? = values[argument] { return value }
        return nil
    }

    func strings(_ argument: String) -> [String] {
        values[argument]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

/// The fields to execute below a composite-typed field, for each concrete type the value can have.
final class SelectionPlan: Sendable {
    let byType: [String: [FieldPlan]]
    /// The type and fields when there is one concrete type (an object type's selection, the usual case): a string
    /// comparison instead of hashing the type name for every object written.
    private let only: (type: String, fields: [FieldPlan])?

    init(byType: [String: [FieldPlan]]) {
        self.byType = byType
        only = byType.count == 1 ? byType.first.map { ($0.key, $0.value) } : nil
    }

    func fields(for type: String) -> [FieldPlan] {
        if let only { return only.type == type ? only.fields : [] }
        return byType[type] ?? []
    }

    /// Every field plan under this selection, for any concrete type.
    var allFields: [FieldPlan] { byType.values.flatMap { $0 } }
}
