import GraphQL

/// Counts the fragment spreads each operation expands to, fragments inlined wherever they are spread, and
/// refuses operations over ``GraphQLLimits/maxFragmentSpreads`` before any other validation runs.
///
/// Fragments spreading fragments multiply: thirteen short definitions each spreading the next three times
/// expand 3^12 times, and a chain of a thousand fragments costs validation rules that walk each fragment from
/// every spread site time quadratic or worse in the chain. Counting is linear (each fragment's count is
/// computed once) and needs no types, so it can run before the library's rules.
struct FragmentSpreadLimit {
    let limit: Int

    func validate(_ document: Document) -> [GraphQLError] {
        var spreads: [String: [String]] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            spreads[fragment.name.value] = Self.spreads(in: fragment.selectionSet)
        }
        var memo: [String: Int] = [:]
        var errors: [GraphQLError] = []
        for case let operation as OperationDefinition in document.definitions {
            var visiting = Set<String>()
            let count = Self.spreads(in: operation.selectionSet).reduce(0) {
                Self.add($0, expanded($1, spreads, &memo, &visiting))
            }
            if count > limit {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                errors.append(.validation(
                    "\(name) expands more than \(limit) fragment spreads.", [operation], code: .tooManyFragmentSpreads))
            }
        }
        return errors
    }

    /// 1 for the spread itself, plus what the fragment spreads in turn. Cycles and unknown fragments count once
    /// (other rules report them).
    private func expanded(_ name: String, _ spreads: [String: [String]], _ memo: inout [String: Int],
        _ visiting: inout Set<String>) -> Int
    {
        if let known = memo[name] { return known }
        guard let inner = spreads[name], visiting.insert(name).inserted else { return 1 }
        var total = 1
        for next in inner {
            total = Self.add(total, expanded(next, spreads, &memo, &visiting))
            // Past the limit the exact count does not matter; stopping keeps this linear even so.
            if total > limit { break }
        }
        visiting.remove(name)
        memo[name] = total
        return total
    }

    /// The names of the fragments a selection set spreads, inline fragments included, in order.
    private static func spreads(in selectionSet: SelectionSet) -> [String] {
        var names: [String] = []
        var pending = [selectionSet]
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case let field as Field: if let inner = field.selectionSet { pending.append(inner) }
                case let inline as InlineFragment: pending.append(inline.selectionSet)
                case let spread as FragmentSpread: names.append(spread.name.value)
                default: continue
                }
            }
        }
        return names
    }

    /// Addition that saturates: fan-out can pass `Int.max`.
    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
