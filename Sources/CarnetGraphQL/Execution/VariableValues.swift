import GraphQL

/// One variable an operation defines, worked out when its document is prepared: coercing a request's variables
/// then reads no syntax nodes (copying them retained every node below). A class: iterating retains one reference.
final class VariableSlot: Sendable {
    let name: String
    let type: TypeRef
    /// The definition's default, as written (coerced per request like a provided value).
    let defaultValue: JSONValue?
    /// Where the definition is, for errors.
    let locations: [SourcePosition]

    init(_ definition: VariableDefinition, locations: [SourcePosition]) {
        name = definition.variable.name.value
        type = InputCoercion.typeRef(definition.type)
        defaultValue = definition.defaultValue.flatMap { InputCoercion.value(of: $0, variables: [:]) }
        self.locations = locations
    }

    /// The slots of each operation's definitions, their positions found in one pass over the text (one pass
    /// per definition was definitions × text: 2,100 variables after a 48 KB comment took 4.8 s).
    static func slots(of operations: [OperationDefinition], _ source: DocumentSource) -> [[VariableSlot]] {
        let definitions = operations.map(\.variableDefinitions)
        let located = definitions.joined().filter { $0.loc != nil }
        var positions = source.positions(ofParsedOffsets: located.map { $0.loc!.start })[...]
        return definitions.map { list in
            list.map { definition in
                guard definition.loc != nil, let position = positions.popFirst() else {
                    return VariableSlot(definition, locations: [])
                }
                return VariableSlot(definition, locations: [position])
            }
        }
    }
}

extension InputCoercion {
    /// Coerces the request's variables to the operation's variable definitions (CoerceVariableValues): provided
    /// ones coerced, absent ones defaulted or left out. - Throws: ``GraphQLRequestError`` with one error per bad
    /// variable.
    func coerceVariables(_ slots: [VariableSlot], _ inputs: [String: JSONValue]) throws(GraphQLRequestError)
        -> [String: JSONValue]
    {
        var coerced: [String: JSONValue] = [:]
        var errors: [ResponseError] = []
        for slot in slots {
            let name = slot.name
            let input = inputs[name]
            if input == nil, let literal = slot.defaultValue {
                if let value = try? coerce(literal, to: slot.type) { coerced[name] = value }
                continue
            }
            if slot.type.isNonNull && (input == nil || input == .null) {
                let reason = input == nil ? "was not provided" : "must not be null"
                errors.append(
                    ResponseError(
                        message: "Variable \"$\(name)\" of required type \"\(slot.type)\" \(reason).",
                        code: .badUserInput,
                        locations: slot.locations))
                continue
            }
            guard let input else { continue }
            do {
                coerced[name] = try coerce(input, to: slot.type)
            } catch {
                errors.append(
                    ResponseError(
                        message:
                            "Variable \"$\(name)\" got invalid value \(input.graphQLDescription); \(error.message)",
                        code: .badUserInput, locations: slot.locations))
            }
        }
        guard errors.isEmpty else { throw GraphQLRequestError(.variableCoercionFailed, errors) }
        return coerced
    }

    static func typeRef(_ type: any GraphQL.`Type`) -> TypeRef {
        switch type {
        case let nonNull as NonNullType: .nonNull(typeRef(nonNull.type))
        case let list as ListType: .list(typeRef(list.type))
        case let named as NamedType: .named(named.name.value)
        default: .named("")
        }
    }

    /// A field's argument values for these variables (none when planned): provided ones coerced, absent ones
    /// defaulted or left out.
    func arguments(_ binding: ArgumentBinding, variables: [String: JSONValue]) throws(FieldError) -> [String: JSONValue]
    {
        var result: [String: JSONValue] = [:]
        for (argument, source) in zip(binding.info.arguments, binding.sources) {
            let provided: JSONValue? =
                switch source {
                case .absent: nil
                case .variable(let name): variables[name]
                case .constant(let value): value
                case .literal(let node): value(of: node, variables: variables)
                }
            try bind(argument, provided, into: &result)
        }
        return result
    }

    private func bind(_ argument: InputValueInfo, _ provided: JSONValue?, into result: inout [String: JSONValue])
        throws(FieldError)
    {
        guard let provided = provided ?? argument.defaultValue else {
            if argument.type.isNonNull {
                throw .badUserInput(
                    "Argument \"\(argument.name)\" of required type \"\(argument.type)\" was not provided.")
            }
            return
        }
        do {
            result[argument.name] = try coerce(provided, to: argument.type)
        } catch {
            throw .badUserInput(
                "Argument \"\(argument.name)\" has invalid value \(provided.graphQLDescription); \(error.message)")
        }
    }
}
