import GraphQL

extension InputCoercion {
    /// Coerces the request's variables to the operation's variable definitions (CoerceVariableValues).
    /// `types` are the definitions' types, in order (``PreparedDocument/variableTypes(of:)``).
    /// - Throws: ``GraphQLRequestError`` with one error per bad variable.
    func coerceVariables(_ operation: OperationDefinition, _ inputs: [String: JSONValue], types: [TypeRef])
        throws(GraphQLRequestError) -> [String: JSONValue]
    {
        var coerced: [String: JSONValue] = [:]
        var errors: [ResponseError] = []
        for (definition, type) in zip(operation.variableDefinitions, types) {
            let name = definition.variable.name.value
            let input = inputs[name]
            if input == nil, let defaultNode = definition.defaultValue {
                if let literal = value(of: defaultNode, variables: [:]), let value = try? coerce(literal, to: type) {
                    coerced[name] = value
                }
                continue
            }
            if type.isNonNull && (input == nil || input == .null) {
                let reason = input == nil ? "was not provided" : "must not be null"
                errors.append(ResponseError(
                    message: "Variable \"$\(name)\" of required type \"\(type)\" \(reason).", code: .badUserInput,
                    locations: Self.positions(definition)))
                continue
            }
            guard let input else { continue }
            do {
                coerced[name] = try coerce(input, to: type)
            } catch {
                errors.append(ResponseError(
                    message: "Variable \"$\(name)\" got invalid value \(input.graphQLDescription); \(error.message)",
                    code: .badUserInput, locations: Self.positions(definition)))
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

    static func positions(_ node: any Node) -> [SourcePosition] {
        GraphQLError(message: "", nodes: [node]).locations.map { SourcePosition(line: $0.line, column: $0.column) }
    }

    /// A field's argument values: provided ones coerced, absent ones defaulted or left out.
    func arguments(_ field: Field, _ info: FieldInfo, variables: [String: JSONValue]) throws(FieldError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for argument in info.arguments {
            let node = field.arguments.first { $0.name.value == argument.name }
            var provided = node.flatMap { value(of: $0.value, variables: variables) }
            if provided == nil, let defaultValue = argument.defaultValue { provided = defaultValue }
            guard let provided else {
                if argument.type.isNonNull {
                    throw .badUserInput("Argument \"\(argument.name)\" of required type \"\(argument.type)\" was not provided.")
                }
                continue
            }
            do {
                result[argument.name] = try coerce(provided, to: argument.type)
            } catch {
                throw .badUserInput("Argument \"\(argument.name)\" has invalid value \(provided.graphQLDescription); \(error.message)")
            }
        }
        return result
    }
}
