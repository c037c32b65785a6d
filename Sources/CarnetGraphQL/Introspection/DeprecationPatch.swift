import GraphQL
import OrderedCollections

/// Works around GraphQLSwift 4.3 resolving `__InputValue.isDeprecated` to null (its argument and input-field
/// definitions have no `isDeprecated` property for the default resolver to find), which fails the whole
/// `__schema` of the introspection query most tools send (`inputFields(includeDeprecated: true) { isDeprecated }`).
///
/// Before delegating, every `isDeprecated` selection becomes `key: __typename` plus a hidden
/// `__carnetDeprecated_<key>: deprecationReason` (both exist on `__Field`, `__EnumValue` and `__InputValue`, the
/// only types with `isDeprecated`); afterwards each hidden reason is turned back into the boolean under `key`.
enum DeprecationPatch {
    static let hiddenPrefix = "__carnetDeprecated_"

    /// Rewrites the printed document text, leaving string literals, variables and fragment names alone.
    static func rewrite(_ text: String) -> String {
        guard text.contains("isDeprecated") else { return text }
        var output = ""
        var index = text.startIndex
        // Where the alias before the current word starts in `output`, and the alias itself.
        var alias: (start: Int, name: String)?
        var previousWord = ""
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                let end = stringEnd(text, from: index)
                output += text[index..<end]
                index = end
                alias = nil
                continue
            }
            guard character.isLetter || character == "_" else {
                if !character.isWhitespace, character != ":" { alias = nil }
                if character == "." { previousWord = "..." }
                output.append(character)
                index = text.index(after: index)
                continue
            }
            var end = index
            while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
                end = text.index(after: end)
            }
            let word = String(text[index..<end])
            let isVariable = output.last == "$"
            var next = end
            while next < text.endIndex, text[next].isWhitespace { next = text.index(after: next) }
            if next < text.endIndex, text[next] == ":", !isVariable {
                alias = (output.count, word)
            } else if word == "isDeprecated", !isVariable, previousWord != "fragment", previousWord != "..." {
                let key = alias?.name ?? word
                if let alias { output = String(output.prefix(alias.start)) }
                output += "\(key): __typename \(hiddenPrefix)\(key): deprecationReason"
                index = end
                alias = nil
                previousWord = word
                continue
            } else {
                alias = nil
            }
            output += word
            previousWord = word
            index = end
        }
        return output
    }

    /// Turns the hidden reasons back into `isDeprecated` booleans.
    static func restore(_ value: Map) -> Map {
        switch value {
        case .array(let items): return .array(items.map(restore))
        case .dictionary(let fields):
            var result = OrderedDictionary<String, Map>()
            for (key, item) in fields where !key.hasPrefix(hiddenPrefix) { result[key] = restore(item) }
            for (key, reason) in fields where key.hasPrefix(hiddenPrefix) {
                let visible = String(key.dropFirst(hiddenPrefix.count))
                if case .null = reason { result[visible] = .bool(false) } else { result[visible] = .bool(true) }
            }
            return .dictionary(result)
        default: return value
        }
    }

    private static func stringEnd(_ text: String, from start: String.Index) -> String.Index {
        let block = text[start...].hasPrefix("\"\"\"")
        var index = text.index(start, offsetBy: block ? 3 : 1)
        while index < text.endIndex {
            if block, text[index...].hasPrefix("\"\"\""), !text[..<index].hasSuffix("\\") {
                return text.index(index, offsetBy: 3)
            }
            if !block {
                if text[index] == "\\" {
                    index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                    continue
                }
                if text[index] == "\"" { return text.index(after: index) }
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }
}
