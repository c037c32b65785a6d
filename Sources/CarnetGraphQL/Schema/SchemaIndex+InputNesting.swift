extension SchemaIndex {
    /// The deepest nesting of lists and input objects any argument accepts: `[{a: [1]}]` for `[In]` with
    /// `a: [Int]` is 3. A literal nested deeper cannot be valid anywhere, which is what makes
    /// ``GraphQLLimits/maxValueNesting`` safe to enforce on the raw text. `nil` if an input type contains itself
    /// (then no depth is the deepest).
    var deepestArgumentNesting: Int? {
        var deepest = 0
        var memo: [String: Int] = [:]
        for case .object(let fields, _) in types.values {
            for field in fields.values {
                for argument in field.arguments {
                    var visiting = Set<String>()
                    guard let depth = nesting(argument.type, &memo, &visiting) else { return nil }
                    deepest = max(deepest, depth)
                }
            }
        }
        return deepest
    }

    private func nesting(_ type: TypeRef, _ memo: inout [String: Int], _ visiting: inout Set<String>) -> Int? {
        switch type {
        case .nonNull(let inner): return nesting(inner, &memo, &visiting)
        case .list(let inner): return nesting(inner, &memo, &visiting).map { $0 + 1 }
        case .named(let name):
            guard case .inputObject(let fields, _)? = types[name] else { return 0 }
            if let known = memo[name] { return known }
            guard visiting.insert(name).inserted else { return nil }
            var deepest = 0
            for field in fields {
                guard let depth = nesting(field.type, &memo, &visiting) else { return nil }
                deepest = max(deepest, depth)
            }
            visiting.remove(name)
            memo[name] = deepest + 1
            return deepest + 1
        }
    }
}
