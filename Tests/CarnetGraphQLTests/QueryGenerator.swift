import CarnetTestSupport
import Foundation

@testable import CarnetGraphQL

/// Generates query documents from the schema: random selections of fields (with aliases, fragments, inline
/// fragments and `@include`/`@skip`), arguments taken from the seeded data. Deterministic for a seed.
struct QueryGenerator {
    private var random: SeededRandom
    let schema = SchemaIndex.shared
    let seeded: SampleData.Seeded
    private var fragments: [String] = []
    /// Aliases used so far in the document: kept under the executor's limit (30), so every document is valid.
    private var aliases = 0

    init(seed: UInt64, seeded: SampleData.Seeded) {
        self.random = SeededRandom(seed: seed)
        self.seeded = seeded
    }

    private mutating func next() -> UInt64 { random.next() }

    private mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// A document with one query operation (and its fragments) and the variables it uses.
    mutating func document() -> (query: String, variables: [String: JSONValue]) {
        fragments = []
        aliases = 0
        let roots = [
            "contact", "contacts", "group", "groups", "container", "containers", "defaultContainer", "node",
            "changeHistory", "currentHistoryToken",
        ]
        var fields: [String] = ["flagged: __typename @include(if: $flag)"]
        for _ in 0..<(1 + Int(next() % 3)) {
            let name = pick(roots)
            let alias = "r\(fields.count)"
            fields.append("\(alias): \(name)\(rootArguments(name))\(selection(for: "Query", field: name, depth: 0))")
        }
        let includeFlag = chance(50)
        let query =
            "query Generated($flag: Boolean!) {\n  " + fields.joined(separator: "\n  ") + "\n}\n"
            + fragments.joined(separator: "\n")
        return (query, ["flag": .bool(includeFlag)])
    }

    private mutating func rootArguments(_ name: String) -> String {
        switch name {
        case "contact": return "(id: \"\(pick(seeded.contacts + ["missing"]))\")"
        case "node": return "(id: \"\(pick(seeded.contacts + seeded.groups + seeded.containers + ["missing"]))\")"
        case "group": return "(id: \"\(pick(seeded.groups))\")"
        case "container": return "(id: \"\(pick(seeded.containers))\")"
        case "groups": return chance(30) ? "(containerId: \"\(pick(seeded.containers))\")" : ""
        case "contacts":
            var arguments = [
                "first: \(1 + next() % 9)", "sortOrder: \(pick(["NONE", "GIVEN_NAME", "FAMILY_NAME", "USER_DEFAULT"]))",
            ]
            var filter: [String] = []
            if chance(40) { filter.append("name: \"\(pick(["an", "smi", "jo", "z", "glob"]))\"") }
            if chance(15) { filter.append("groupId: \"\(seeded.groups[0])\"") }
            if !filter.isEmpty { arguments.append("filter: {" + filter.joined(separator: ", ") + "}") }
            if chance(15) { arguments = ["last: \(1 + next() % 5)", "sortOrder: GIVEN_NAME"] }
            return "(" + arguments.joined(separator: ", ") + ")"
        case "changeHistory":
            return "(first: \(1 + next() % 30), includeGroupChanges: \(chance(50)))"
        default: return ""
        }
    }

    private mutating func fieldArguments(_ info: FieldInfo) -> String {
        var arguments: [String] = []
        for argument in info.arguments where chance(50) {
            switch argument.name {
            case "order": arguments.append("order: \(pick(["GIVEN_NAME_FIRST", "FAMILY_NAME_FIRST", "USER_DEFAULT"]))")
            case "sortOrder": arguments.append("sortOrder: \(pick(["NONE", "GIVEN_NAME", "FAMILY_NAME"]))")
            case "first": arguments.append("first: \(1 + next() % 4)")
            default: continue
            }
        }
        return arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
    }

    /// The selection set for a field's type (empty for leaves).
    private mutating func selection(for parent: String, field: String, depth: Int) -> String {
        guard let info = schema.types[parent]?.field(field) else { return "" }
        let typeName = info.type.namedType
        guard let type = schema.types[typeName], type.isComposite else { return "" }
        return " { " + selectionSet(typeName, depth: depth + 1) + " }"
    }

    private mutating func selectionSet(_ typeName: String, depth: Int) -> String {
        guard let type = schema.types[typeName] else { return "__typename" }
        var parts: [String] = []
        switch type {
        case .interface(let fields, let possible):
            parts.append("__typename")
            for name in fields.keys.sorted() where chance(60) { parts.append(name) }
            for concrete in possible where chance(60) {
                parts.append("... on \(concrete) { " + objectSelection(concrete, depth: depth) + " }")
            }
        default:
            parts.append(objectSelection(typeName, depth: depth))
        }
        return parts.joined(separator: " ")
    }

    private mutating func objectSelection(_ typeName: String, depth: Int) -> String {
        guard case .object(let fields, _)? = schema.types[typeName] else { return "__typename" }
        var parts: [String] = []
        for name in fields.keys.sorted() {
            let info = fields[name]!
            let composite = schema.types[info.type.namedType]?.isComposite ?? false
            guard chance(composite ? (depth < 3 ? 35 : 0) : 45) else { continue }
            if info.arguments.contains(where: { $0.type.isNonNull && $0.defaultValue == nil }) { continue }
            let alias = aliases < 24 && chance(20) ? "a\(next() % 1000)_\(name): " : ""
            if !alias.isEmpty { aliases += 1 }
            let directive = chance(10) ? " @include(if: $flag)" : (chance(5) ? " @skip(if: $flag)" : "")
            let field =
                "\(alias)\(name)\(fieldArguments(info))\(directive)\(selection(for: typeName, field: name, depth: depth))"
            if chance(10) {
                let fragment = "F\(fragments.count)_\(typeName)"
                fragments.append("fragment \(fragment) on \(typeName) { \(field) }")
                parts.append("...\(fragment)")
            } else {
                parts.append(field)
            }
        }
        if parts.isEmpty || chance(20) { parts.append("__typename") }
        return parts.joined(separator: " ")
    }
}
