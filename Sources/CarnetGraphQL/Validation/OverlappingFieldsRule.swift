import GraphQL

/// The spec's "Field Selection Merging" (OverlappingFieldsCanBeMerged), which GraphQLSwift leaves out:
/// fields with the same response name must be the same field with the same arguments, unless their parents are
/// different object types; either way their results must have the same shape.
/// `{ a: givenName a: familyName }` is refused.
///
/// Comparing fields pairwise, recursively into their sub-selections, can take time exponential in the depth of
/// a crafted document (many same-named fields at every level). Each pair's verdict is remembered, and the whole
/// rule stops with `MAX_FIELD_MERGE_CHECKS_EXCEEDED` once it has compared ``GraphQLLimits/maxFieldMergeChecks``
/// fields, far more than any real operation needs. It also stops at `maxErrors` conflicts: past the refusal's
/// listed errors none is shown, and each costs a scan of the text when errors are located (450 conflicting
/// root fields, 12 KB, made 100,000 errors and took 15 s of CPU).
struct OverlappingFieldsRule {
    let traversal: SelectionTraversal
    let maxChecks: Int
    let maxErrors: Int
    private var checks = 0
    private var verdicts: [String: String?] = [:]

    init(traversal: SelectionTraversal, maxChecks: Int, maxErrors: Int) {
        self.traversal = traversal
        self.maxChecks = maxChecks
        self.maxErrors = maxErrors
    }

    /// Why the check stopped early: past ``maxChecks``, or ``maxErrors`` conflicts found.
    private enum Stop: Error { case tooManyChecks, enoughErrors }

    mutating func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        var reported = Set<String>()
        var checked = Set<String>()
        do {
            for (selectionSet, type) in traversal.roots(document) {
                try check(selectionSet, type, errors: &errors, reported: &reported, checked: &checked)
            }
        } catch .enoughErrors {
            return errors
        } catch {
            return [
                .validation(
                    "Checking that same-named fields merge took more than \(maxChecks) comparisons; simplify the document.",
                    [], code: .tooManyFieldMergeChecks)
            ]
        }
        return errors
    }

    /// Counts work, and refuses to go on past the limit.
    private mutating func spend(_ count: Int) throws(Stop) {
        checks += count
        if checks > maxChecks { throw .tooManyChecks }
    }

    /// FieldsInSetCanMerge over the union of selection sets, then recursively into every selection set.
    private mutating func check(
        _ selectionSet: SelectionSet, _ type: String, errors: inout [GraphQLError], reported: inout Set<String>,
        checked: inout Set<String>
    ) throws(Stop) {
        // A selection set reached again through another fragment spread is checked once.
        guard checked.insert("\(ObjectIdentifier(selectionSet))|\(type)").inserted else { return }
        let fields = traversal.collectFields(selectionSet, parentType: type)
        try spend(fields.count)
        var byName: [String: [SelectionTraversal.FieldOccurrence]] = [:]
        var order: [String] = []
        for field in fields {
            if byName[field.responseName] == nil { order.append(field.responseName) }
            byName[field.responseName, default: []].append(field)
        }
        for name in order {
            let group = distinct(byName[name] ?? [])
            for i in group.indices {
                for j in group.indices where j > i {
                    if let reason = try conflict(group[i], group[j]) {
                        let key = "\(name)|\(i)|\(j)|\(group[i].identity)|\(group[j].identity)"
                        if reported.insert(key).inserted {
                            errors.append(
                                .validation(
                                    "Fields \"\(name)\" conflict because \(reason). Use different aliases on the fields to fetch both if this was intentional.",
                                    [group[i].node, group[j].node]))
                            if errors.count >= maxErrors { throw .enoughErrors }
                        }
                    }
                }
            }
        }
        // Nested selection sets are checked where they stand (the merged check above covers pairs across them).
        for field in fields {
            if let selectionSet = field.node.selectionSet, let info = field.info {
                try check(selectionSet, info.type.namedType, errors: &errors, reported: &reported, checked: &checked)
            }
        }
    }

    /// One occurrence per distinct (parent, field, arguments, selection set), so repeats cost nothing.
    private func distinct(_ fields: [SelectionTraversal.FieldOccurrence]) -> [SelectionTraversal.FieldOccurrence] {
        var seen = Set<String>()
        return fields.filter { field in
            let selection = field.node.selectionSet.map { "\(ObjectIdentifier($0))" } ?? ""
            return seen.insert("\(field.parentType).\(field.node.name.value)(\(arguments(field.node)))\(selection)")
                .inserted
        }
    }

    private func arguments(_ field: Field) -> String {
        field.arguments.sorted { $0.name.value < $1.name.value }.map { "\($0.name.value):\(canonical($0.value))" }
            .joined(separator: ",")
    }

    /// A value as text with input object fields in name order: `{a: 1, b: 2}` and `{b: 2, a: 1}` are one value.
    private func canonical(_ value: any Value) -> String {
        switch value {
        case let object as ObjectValue:
            "{"
                + object.fields.sorted { $0.name.value < $1.name.value }.map {
                    "\($0.name.value):\(canonical($0.value))"
                }
                .joined(separator: ",") + "}"
        case let list as ListValue: "[" + list.values.map(canonical).joined(separator: ",") + "]"
        default: print(ast: value)
        }
    }

    private func isObject(_ type: String) -> Bool {
        if case .object? = traversal.schema.types[type] { return true }
        return false
    }

    /// Why two fields with one response name cannot merge, or `nil` when they can; each pair is compared once.
    /// Below fields of mutually exclusive parents (different object types), only the shape must agree, at every
    /// level: the same response key then holds values of one shape whichever object it came from.
    private mutating func conflict(
        _ a: SelectionTraversal.FieldOccurrence, _ b: SelectionTraversal.FieldOccurrence,
        parentsExclusive: Bool = false
    ) throws(Stop) -> String? {
        let key = "\(a.identity)\(a.parentType)|\(b.identity)\(b.parentType)|\(parentsExclusive)"
        if let known = verdicts[key] { return known }
        try spend(1)
        let verdict = try uncachedConflict(a, b, parentsExclusive: parentsExclusive)
        verdicts[key] = verdict
        return verdict
    }

    private mutating func uncachedConflict(
        _ a: SelectionTraversal.FieldOccurrence, _ b: SelectionTraversal.FieldOccurrence, parentsExclusive: Bool
    ) throws(Stop) -> String? {
        let exclusive =
            parentsExclusive || (a.parentType != b.parentType && isObject(a.parentType) && isObject(b.parentType))
        if !exclusive {
            if a.node.name.value != b.node.name.value {
                return "\"\(a.node.name.value)\" and \"\(b.node.name.value)\" are different fields"
            }
            if arguments(a.node) != arguments(b.node) { return "they have differing arguments" }
        }
        if let typeA = a.info?.type, let typeB = b.info?.type {
            if let reason = shapeConflict(typeA, typeB) { return reason }
        }
        guard let setA = a.node.selectionSet, let setB = b.node.selectionSet, let typeA = a.info?.type,
            let typeB = b.info?.type
        else { return nil }
        // The sub-selections must merge too (below exclusive parents, in shape only).
        let fields =
            traversal.collectFields(setA, parentType: typeA.namedType)
            + traversal.collectFields(setB, parentType: typeB.namedType)
        try spend(fields.count)
        var byName: [String: [SelectionTraversal.FieldOccurrence]] = [:]
        for field in fields { byName[field.responseName, default: []].append(field) }
        for (name, group) in byName {
            let group = distinct(group)
            for i in group.indices {
                for j in group.indices where j > i {
                    let inner = try conflict(group[i], group[j], parentsExclusive: exclusive)
                    if let inner { return "subfields \"\(name)\" conflict because \(inner)" }
                }
            }
        }
        return nil
    }

    /// SameResponseShape for the types alone: wrappers must match, leaves must be the same type.
    private func shapeConflict(_ a: TypeRef, _ b: TypeRef) -> String? {
        switch (a, b) {
        case (.nonNull(let x), .nonNull(let y)), (.list(let x), .list(let y)):
            return shapeConflict(x, y)
        case (.named(let x), .named(let y)):
            let compositeX = traversal.schema.types[x]?.isComposite ?? false
            let compositeY = traversal.schema.types[y]?.isComposite ?? false
            if !compositeX || !compositeY, x != y { return "they return conflicting types \"\(x)\" and \"\(y)\"" }
            return nil
        default:
            return "they return conflicting types \"\(a)\" and \"\(b)\""
        }
    }
}
