import CarnetGraphQL
import CarnetTestSupport

/// Turns a valid document and its variables into the kinds of broken input clients and attackers send:
/// truncations, wrong variable types, huge integers, deep nesting, many aliases, fragment cycles, bad escapes,
/// stray punctuation. Deterministic for a seed (SplitMix64), so a failure's seed reproduces it.
struct InputMutator {
    enum Kind: String, CaseIterable {
        case valid, truncated, wrongVariables, hugeIntegers, deepNesting, manyAliases, fragmentCycle, escapes, noise
    }

    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func mutate(_ query: String, _ variables: [String: JSONValue], as kind: Kind)
        -> (query: String, variables: [String: JSONValue])
    {
        switch kind {
        case .valid:
            return (query, variables)
        case .truncated:
            let scalars = Array(query.unicodeScalars)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars.prefix(below(scalars.count)))
            return (String(view), variables)
        case .wrongVariables:
            let wrong: [JSONValue] = [
                .string("yes"), .int(1), .double(1.5), .array([.bool(true)]), .object(["a": .null]),
                .null, .int(Int.max), .double(1e300), .string(String(repeating: "x", count: 5_000)),
            ]
            var changed = variables
            for key in variables.keys { changed[key] = pick(wrong) }
            changed["unexpected\(below(3))"] = pick(wrong)
            return (query, changed)
        case .hugeIntegers:
            let huge = pick(["2147483648", "-2147483649", "99999999999999999999999", "0", "-1", "1e400", "1.5"])
            return (replacingFirstNumber(in: query, with: huge), variables)
        case .deepNesting:
            let depth = 1 + below(120)
            if next() % 2 == 0, let brace = query.firstIndex(of: "{") {
                let inner = String(repeating: "... on Query { ", count: depth)
                return (
                    query[..<brace] + "{ " + inner + query[query.index(after: brace)...].dropLast(0)
                        + String(repeating: " }", count: depth), variables
                )
            }
            let value = String(repeating: "[", count: depth) + "\"a\"" + String(repeating: "]", count: depth)
            return ("{ contacts(filter: {ids: \(value)}) { totalCount } }", variables)
        case .manyAliases:
            let aliases = (0..<(10 + below(60))).map { "a\($0): __typename" }.joined(separator: " ")
            return ("{ " + aliases + " }", [:])
        case .fragmentCycle:
            let names = (0..<(1 + below(4))).map { "F\($0)" }
            var text = "{ ...\(names[0]) }"
            for (index, name) in names.enumerated() {
                text += " fragment \(name) on Query { __typename ...\(names[(index + 1) % names.count]) }"
            }
            return (text, [:])
        case .escapes:
            let escape = pick([
                #"\u{1F600}"#, #"\uD83D\uDE00"#, #"\uD83D"#, #"\u{110000}"#, #"\u{}"#, #"\uXYZ1"#, #"\u00e9"#,
                #"\u{E9}"#, #"\"#, #"\x"#, "é😀", #"\u{D800}"#, #"\u{0}"#,
            ])
            return ("{ contacts(filter: {name: \"a\(escape)b\"}) { totalCount } }", [:])
        case .noise:
            var scalars = Array(query.unicodeScalars)
            for _ in 0..<(1 + below(4)) where !scalars.isEmpty {
                let index = below(scalars.count)
                if next() % 2 == 0 {
                    scalars.remove(at: index)
                } else {
                    scalars.insert(pick(Array("{}[]()!$@:=.\"#,é\\|&".unicodeScalars)), at: index)
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return (String(view), variables)
        }
    }

    private func replacingFirstNumber(in text: String, with number: String) -> String {
        guard let start = text.firstIndex(where: \.isNumber) else { return text }
        let end = text[start...].firstIndex { !$0.isNumber } ?? text.endIndex
        return String(text[..<start]) + number + String(text[end...])
    }
}
