/// The response media types of GraphQL over HTTP, and `Accept` negotiation between them.
enum ResponseMediaType: String, Sendable {
    case graphQLResponse = "application/graphql-response+json"
    case json = "application/json"

    var contentType: String { rawValue + "; charset=utf-8" }

    /// The type to answer with: the acceptable one with the highest quality (the earlier on a tie); a missing
    /// `Accept` means `application/json`, for clients that predate the media type. `nil`: nothing acceptable (406).
    static func negotiate(_ accept: String?) -> ResponseMediaType? {
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return .json }
        switch accept {  // the usual ones, without parsing
        case "*/*", "application/json": return .json
        case "application/graphql-response+json", "application/graphql-response+json, application/json;q=0.9":
            return .graphQLResponse
        default: break
        }
        var best: (type: ResponseMediaType, quality: Double)?
        for item in accept.split(separator: ",") {
            let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let range = parameters.first else { continue }
            let quality = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard quality > 0 else { continue }
            let type: ResponseMediaType? =
                switch range {
                case "application/graphql-response+json": .graphQLResponse
                case "application/json", "application/*", "*/*": .json
                default: nil
                }
            if let type, quality > (best?.quality ?? 0) { best = (type, quality) }
        }
        return best?.type
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
