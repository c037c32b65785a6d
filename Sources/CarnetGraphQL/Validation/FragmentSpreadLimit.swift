import GraphQL

/// Counts the fragment spreads each operation expands to, fragments inlined wherever they are spread, and
/// refuses operations over ``GraphQLLimits/maxFragmentSpreads`` before any other validation runs.
///
/// Fragments spreading fragments multiply: thirteen short definitions each spreading the next three times
/// expand 3^12 times, and a chain of a thousand fragments costs validation rules that walk each fragment from
/// every spread site time quadratic or worse in the chain. Counting is linear (each fragment's count is
/// computed once) and needs no types, so it can run before the library's rules.
///
/// It also measures each operation's selection nesting with fragments expanded (fields and inline fragments are
/// levels; a spread puts its fragment's selections where it stands) and refuses one nested deeper than
/// ``GraphQLLimits/maxSelectionNesting``: the text of each fragment is within that limit, but a chain of fragments
/// each nested near it would take every rule that walks fields through fragments thousands of levels deep, and
/// overflow the stack. With both limits, those rules recurse at most that nesting plus the spread limit deep.
/// Computed from each fragment's outline (its spreads and the level of each), once per fragment, without
/// recursing into selections.
struct FragmentSpreadLimit {
    let limit: Int
    let maxNesting: Int

    init(limit: Int, maxNesting: Int = GraphQLLimits().maxSelectionNesting) {
        self.limit = limit
        self.maxNesting = maxNesting
    }

    /// A selection set's fragment spreads, with the level each stands at (1 for the set's own selections), and
    /// the deepest level of its fields and inline fragments.
    private struct Outline {
        var spreads: [(name: String, level: Int)] = []
        var depth = 0
    }

    func validate(_ document: Document) -> [GraphQLError] {
        var outlines: [String: Outline] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            outlines[fragment.name.value] = Self.outline(of: fragment.selectionSet)
        }
        var memo: [String: Int] = [:]
        var nestingMemo: [String: Int] = [:]
        var errors: [GraphQLError] = []
        for case let operation as OperationDefinition in document.definitions {
            var visiting = Set<String>()
            let outline = Self.outline(of: operation.selectionSet)
            let count = outline.spreads.reduce(0) {
                Self.add($0, expanded($1.name, outlines, &memo, &visiting))
            }
            let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
            if count > limit {
                errors.append(
                    .validation(
                        "\(name) expands more than \(limit) fragment spreads.", [operation],
                        code: .tooManyFragmentSpreads))
                continue
            }
            if nesting(of: outline, outlines, &nestingMemo, &visiting) > maxNesting {
                errors.append(
                    .validation(
                        "\(name) nests selections more than \(maxNesting) deep with its fragments expanded.",
                        [operation], code: .nestingTooDeep))
            }
        }
        return errors
    }

    /// The nesting of a fragment's selections with the fragments it spreads expanded, 1 for a fragment of fields
    /// without selections. Cycles and unknown fragments count as 0 (other rules report them). The recursion
    /// follows spreads only, at most as deep as the operation's spread count, which ``limit`` bounds.
    private func expandedNesting(
        _ name: String, _ outlines: [String: Outline], _ memo: inout [String: Int], _ visiting: inout Set<String>
    ) -> Int {
        if let known = memo[name] { return known }
        guard let outline = outlines[name], visiting.insert(name).inserted else { return 0 }
        let nesting = nesting(of: outline, outlines, &memo, &visiting)
        visiting.remove(name)
        memo[name] = nesting
        return nesting
    }

    /// The nesting of a selection set from its outline: its own depth, or a spread's level plus the nesting of
    /// the fragment it expands, whichever is deeper. Stops once past ``maxNesting``.
    private func nesting(
        of outline: Outline, _ outlines: [String: Outline], _ memo: inout [String: Int],
        _ visiting: inout Set<String>
    ) -> Int {
        var nesting = outline.depth
        for spread in outline.spreads where nesting <= maxNesting {
            nesting = max(nesting, spread.level - 1 + expandedNesting(spread.name, outlines, &memo, &visiting))
        }
        return nesting
    }

    /// 1 for the spread itself, plus what the fragment spreads in turn. Cycles and unknown fragments count once
    /// (other rules report them).
    private func expanded(
        _ name: String, _ outlines: [String: Outline], _ memo: inout [String: Int],
        _ visiting: inout Set<String>
    ) -> Int {
        if let known = memo[name] { return known }
        guard let outline = outlines[name], visiting.insert(name).inserted else { return 1 }
        var total = 1
        for next in outline.spreads {
            total = Self.add(total, expanded(next.name, outlines, &memo, &visiting))
            // Past the limit the exact count does not matter; stopping keeps this linear even so.
            if total > limit { break }
        }
        visiting.remove(name)
        memo[name] = total
        return total
    }

    /// The spreads of a selection set, inline fragments' included, with their levels, and its deepest level; a
    /// loop over a stack, not recursion.
    private static func outline(of selectionSet: SelectionSet) -> Outline {
        var outline = Outline()
        var pending = [(selectionSet, 1)]
        while let (set, level) = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    outline.depth = max(outline.depth, level)
                    if let inner = field.selectionSet { pending.append((inner, level + 1)) }
                case let inline as InlineFragment:
                    outline.depth = max(outline.depth, level)
                    pending.append((inline.selectionSet, level + 1))
                case let spread as FragmentSpread:
                    outline.spreads.append((spread.name.value, level))
                default: continue
                }
            }
        }
        return outline
    }

    /// Addition that saturates: fan-out can pass `Int.max`.
    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
