import GraphQL
import OrderedCollections

extension Executor {
    /// `__schema` and `__type` are delegated to GraphQLSwift's executor, which knows the introspection types;
    /// its result is written in place, so the response keeps selection order. Results are cached per document
    /// and variables: tools introspect often and the schema never changes at run time.
    func writeIntrospection(_ plan: FieldPlan) async throws {
        var text = "query"
        let definitions = operation.variableDefinitions.map { print(ast: $0) }
        if !definitions.isEmpty { text += "(" + definitions.joined(separator: ", ") + ")" }
        text += " { " + plan.nodes.map { print(ast: $0) }.joined(separator: " ") + " }\n"
        for fragment in prepared.fragments.values { text += print(ast: fragment) + "\n" }
        var variablesKey = JSONWriter()
        variablesKey.value(.object(variables))
        let cacheKey = text + "\u{0}" + variablesKey.string
        if let cached = service.introspectionCache[cacheKey] {
            writer.raw(cached)
            return
        }
        // `__type(name:)` is not a field of the query type in the schema index, so its argument is read here. Its
        // `String!` can still get a null, from a nullable variable with a default: the client's fault, said before
        // the library's executor would fail on it.
        let typeName = plan.nodes.first?.arguments.first { $0.name.value == "name" }
            .flatMap { InputCoercion.value(of: $0.value, variables: variables) }?.stringValue
        if plan.name == "__type", typeName == nil {
            throw FieldError.badUserInput("Argument \"name\" of required type \"String!\" must not be null.")
        }
        let hiddenPrefix = DeprecationPatch.hiddenPrefix(for: text)
        let document = try parse(
            source: Source(body: DeprecationPatch.rewrite(text, hiddenPrefix: hiddenPrefix), name: "introspection"))
        let result = try await execute(
            schema: CarnetSchema.schema, documentAST: document, rootValue: (), context: (),
            variableValues: variables.mapValues(Map.init))
        // A null `@skip`/`@include` condition is the client's: GraphQLSwift raises it where it collects a selection
        // set, as graphql-js does, nulling what holds it. Any other error is Carnet's.
        var conditionErrors: [[PathElement]] = []
        for error in result.errors {
            guard error.message.hasPrefix(#"Argument "if" got invalid value"#) else {
                throw FieldError(message: error.message, code: .internalServerError)
            }
            conditionErrors.append(
                path
                    + error.path.elements.dropFirst().map {
                        switch $0 {
                        case .index(let index): .index(index)
                        case .key(let key): .key(key)
                        }
                    })
        }
        let restored = result.data.map { DeprecationPatch.restore($0, hiddenPrefix: hiddenPrefix) }
        guard case .dictionary(let data)? = restored,
            var value = data[plan.responseKey]
        else {
            guard conditionErrors.isEmpty else { throw Planner.nullConditionError }
            throw FieldError(message: "Introspection returned nothing.", code: .internalServerError)
        }
        // A condition's null that reached `__schema` itself is thrown: it is non-null, so this executor nulls what
        // holds it, as for any failed non-null field.
        if value.isNull, plan.type.isNonNull, !conditionErrors.isEmpty { throw Planner.nullConditionError }
        let fixup = IntrospectionFixup(schema: CarnetSchema.schema, fragments: prepared.fragments, order: .shared)
        let element: IntrospectionFixup.Element = plan.name == "__schema" ? .schema : .type(.named(typeName ?? ""))
        value = fixup.fix(value, element, plan.nodes.compactMap(\.selectionSet))
        var output = JSONWriter()
        output.map(value)
        writer.raw(output.bytes)
        guard conditionErrors.isEmpty else {
            let error = Planner.nullConditionError
            for errorPath in conditionErrors {
                errors.append(ResponseError(message: error.message, code: error.code, path: errorPath))
            }
            return
        }
        service.introspectionCache.insert(output.bytes, for: cacheKey, cost: output.bytes.count + cacheKey.utf8.count)
    }
}

extension JSONWriter {
    /// Writes a GraphQLSwift `Map` in its own order.
    mutating func map(_ value: Map) {
        switch value {
        case .undefined, .null: null()
        case .bool(let b): bool(b)
        case .number(let number):
            let double = number.doubleValue
            if double.rounded() == double && abs(double) < 1e15 { int(Int(double)) } else { self.double(double) }
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items {
                comma()
                map(item)
            }
            endArray()
        case .dictionary(let fields):
            beginObject()
            for (key, item) in fields {
                self.key(key)
                map(item)
            }
            endObject()
        }
    }
}
