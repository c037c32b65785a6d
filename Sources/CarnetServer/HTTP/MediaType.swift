/// The response media types of GraphQL over HTTP, and `Accept` negotiation between them.
enum ResponseMediaType: String, Sendable {
    case graphQLResponse = "application/graphql-response+json"
    case json = "application/json"

    var contentType: String { rawValue + "; charset=utf-8" }

    /// The type to answer with (RFC 9110 12.5.1): each type takes the quality of the most specific range that
    /// matches it (`application/json` before `application/*` before `*/*`), and one whose quality is 0 is not
    /// acceptable; the highest quality wins, then the range listed first, then `application/json` (when one
    /// wildcard gives both). A missing `Accept` means `application/json`, for clients that predate the media type.
    /// `nil`: nothing acceptable (406).
    static func negotiate(_ accept: String?) -> ResponseMediaType? {
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return .json }
        switch accept {  // the usual ones, without parsing
        case "*/*", "application/json": return .json
        case "application/graphql-response+json", "application/graphql-response+json, application/json;q=0.9":
            return .graphQLResponse
        default: break
        }
        // Per type: the matching range's specificity (3 exact, 2 `application/*`, 1 `*/*`), quality and position.
        var matches: [ResponseMediaType: (specificity: Int, quality: Double, position: Int)] = [:]
        for (position, item) in AcceptHeader.items(accept).enumerated() {
            for type in [Self.graphQLResponse, .json] {
                guard let specificity = type.specificity(of: item.range),
                    specificity > matches[type]?.specificity ?? 0
                else { continue }
                matches[type] = (specificity, item.quality, position)
            }
        }
        let acceptable = matches.filter { $0.value.quality > 0 }
        return acceptable.max { a, b in
            if a.value.quality != b.value.quality { return a.value.quality < b.value.quality }
            if a.value.position != b.value.position { return a.value.position > b.value.position }
            return a.key == .graphQLResponse
        }?.key
    }

    /// How specifically `range` (lowercased) names this type: 3 exactly, 2 as `application/*`, 1 as `*/*`;
    /// `nil` when it does not match.
    private func specificity(of range: Substring) -> Int? {
        switch range {
        case Substring(rawValue): 3
        case "application/*": 2
        case "*/*": 1
        default: nil
        }
    }
}

/// The media ranges of an `Accept` header with their qualities, in order. Commas and semicolons inside quoted
/// parameter values do not split.
enum AcceptHeader {
    struct Item {
        var range: Substring
        var quality: Double
    }

    static func items(_ header: String) -> [Item] {
        split(header, on: ",").compactMap { element in
            let parts = split(element, on: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let range = parts.first, !range.isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
                break
            }
            return Item(range: Substring(range), quality: quality)
        }
    }

    /// `text` split on `separator` outside double-quoted strings (with backslash escapes).
    private static func split(_ text: some StringProtocol, on separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted && character == separator {
                parts.append(Substring(text[start..<index]))
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(Substring(text[start..<text.endIndex]))
        return parts
    }
}

/// Whether a request's `Content-Type` is JSON in UTF-8 (the only body GraphQL over HTTP requires).
func isJSONContentType(_ value: String?) -> Bool {
    guard let value else { return false }
    if value == "application/json" || value == "application/json; charset=utf-8" { return true }  // the usual ones
    let parameters = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard parameters.first == "application/json" || parameters.first == "application/graphql-response+json" else {
        return false
    }
    return parameters.dropFirst().allSatisfy {
        !$0.hasPrefix("charset=") || $0 == "charset=utf-8" || $0 == "charset=\"utf-8\""
    }
}
