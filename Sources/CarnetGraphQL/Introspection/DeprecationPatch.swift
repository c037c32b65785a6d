import GraphQL
import OrderedCollections

/// Works around GraphQLSwift 4.3 resolving `__InputValue.isDeprecated` to null (its argument and input-field
/// definitions have no `isDeprecated` property for the default resolver to find), which fails the whole
/// `__schema` of the introspection query most tools send (`inputFields(includeDeprecated: true) { isDeprecated }`).
///
/// Before delegating, every `isDeprecated` selection becomes `key: __typename` plus a hidden
/// `__carnetDeprecated_<key>: deprecationReason` (both exist on `__Field`, `__EnumValue` and `__InputValue`, the
/// only types with `isDeprecated`), each with the selection's directives, so the key stands where and when the
/// client's field would; afterwards each hidden reason is turned back into the boolean under `key`.
enum DeprecationPatch {
    /// The hidden keys' prefix: one no alias of the document starts with (an alias may be any name). It ends in one
    /// more underscore than the longest run in the text, found in one pass (growing a prefix until the text no
    /// longer contained it searched the text once per underscore of a crafted alias: quadratic).
    static func hiddenPrefix(for text: String) -> String {
        var longest = 0
        var run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "_") ? run + 1 : 0
            longest = max(longest, run)
        }
        return "__carnetDeprecated" + String(repeating: "_", count: longest + 1)
    }

    /// Rewrites the printed document text, leaving string literals, variables and fragment names alone.
    static func rewrite(_ text: String, hiddenPrefix: String) -> String {
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
                // After `...` only a word is a fragment's name: `... { isDeprecated }` selects the field.
                if character == "." { previousWord = "..." } else if !character.isWhitespace { previousWord = "" }
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
                let after = directivesEnd(text, from: end)
                let directives = text[end..<after]
                output += "\(key): __typename\(directives) \(hiddenPrefix)\(key): deprecationReason\(directives)"
                index = after
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

    /// Turns the hidden reasons back into `isDeprecated` booleans, each under the key `__typename` holds in place.
    static func restore(_ value: Map, hiddenPrefix: String) -> Map {
        switch value {
        case .array(let items): return .array(items.map { restore($0, hiddenPrefix: hiddenPrefix) })
        case .dictionary(let fields):
            var result = OrderedDictionary<String, Map>()
            for (key, item) in fields where !key.hasPrefix(hiddenPrefix) {
                result[key] = restore(item, hiddenPrefix: hiddenPrefix)
            }
            for (key, reason) in fields where key.hasPrefix(hiddenPrefix) {
                let visible = String(key.dropFirst(hiddenPrefix.count))
                if case .null = reason { result[visible] = .bool(false) } else { result[visible] = .bool(true) }
            }
            return .dictionary(result)
        default: return value
        }
    }

    /// Where the directives after a field (`@name` with optional arguments, any number) end.
    private static func directivesEnd(_ text: String, from start: String.Index) -> String.Index {
        var end = start
        var index = start
        while true {
            while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
            guard index < text.endIndex, text[index] == "@" else { return end }
            index = text.index(after: index)
            while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" {
                index = text.index(after: index)
            }
            end = index
            while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
            guard index < text.endIndex, text[index] == "(" else { continue }
            // Argument values hold no parentheses outside strings.
            while index < text.endIndex, text[index] != ")" {
                index = text[index] == "\"" ? stringEnd(text, from: index) : text.index(after: index)
            }
            index = index < text.endIndex ? text.index(after: index) : index
            end = index
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
