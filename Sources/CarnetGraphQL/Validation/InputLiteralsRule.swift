import GraphQL

/// The checks on literals that GraphQLSwift's ValuesOfCorrectType leaves out:
/// - `@oneOf` input objects take exactly one field, not null, and a variable used there must be of a non-null
///   type;
/// - an `Int` literal must fit in 32 bits (`first: 2147483648` is a validation error, as in graphql-js, not a
///   field error at execution), in arguments and in variables' default values.
struct InputLiteralsRule {
    let traversal: SelectionTraversal

    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        for case let operation as OperationDefinition in document.definitions {
            var variableTypes: [String: Bool] = [:]
            for definition in operation.variableDefinitions {
                variableTypes[definition.variable.name.value] = definition.type is NonNullType
                if let value = definition.defaultValue {
                    check(value, InputCoercion.typeRef(definition.type), [:], &errors)
                }
            }
            guard let root = traversal.schema.rootType(operation.operation) else { continue }
            var seen = Set<String>()
            visit(operation.selectionSet, root, variableTypes, &seen, &errors)
        }
        return errors
    }

    private func visit(
        _ selectionSet: SelectionSet, _ type: String, _ variables: [String: Bool], _ seen: inout Set<String>,
        _ errors: inout [GraphQLError]
    ) {
        // A selection set reached again through another spread of its fragment has been checked already.
        guard seen.insert("\(ObjectIdentifier(selectionSet))|\(type)").inserted else { return }
        for field in traversal.collectFields(selectionSet, parentType: type) {
            guard let info = field.info else { continue }
            for argument in field.node.arguments {
                if let declared = info.arguments.first(where: { $0.name == argument.name.value }) {
                    check(argument.value, declared.type, variables, &errors)
                }
            }
            if let inner = field.node.selectionSet { visit(inner, info.type.namedType, variables, &seen, &errors) }
        }
    }

    private func check(_ value: any Value, _ type: TypeRef, _ variables: [String: Bool], _ errors: inout [GraphQLError])
    {
        switch (value, type.nullable) {
        case (let int as IntValue, .named("Int")) where Int32(int.value) == nil:
            errors.append(.validation("Int cannot represent non 32-bit signed integer value: \(int.value)", [int]))
        case (let list as ListValue, .list(let inner)):
            for item in list.values { check(item, inner, variables, &errors) }
        case (let object as ObjectValue, .named(let name)):
            guard case .inputObject(let fields, let isOneOf)? = traversal.schema.types[name] else { return }
            if isOneOf {
                if object.fields.count != 1 {
                    errors.append(.validation("OneOf Input Object \"\(name)\" must specify exactly one key.", [object]))
                } else if let only = object.fields.first {
                    if only.value is NullValue {
                        errors.append(.validation("Field \"\(name).\(only.name.value)\" must be non-null.", [only]))
                    } else if let variable = only.value as? Variable, variables[variable.name.value] == false {
                        errors.append(
                            .validation(
                                "Variable \"\(variable.name.value)\" must be non-nullable to be used for OneOf Input Object \"\(name)\".",
                                [variable]))
                    }
                }
            }
            for field in object.fields {
                if let declared = fields.first(where: { $0.name == field.name.value }) {
                    check(field.value, declared.type, variables, &errors)
                }
            }
        case (_, .list(let inner)) where !(value is Variable):
            // A single value where a list is expected is a list of one.
            check(value, inner, variables, &errors)
        default:
            return
        }
    }
}
