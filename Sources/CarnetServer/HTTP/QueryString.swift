import Foundation

/// Decodes a URL query string as WHATWG URLSearchParams does (`+` is a space), keeping the first of repeats.
func decodeQueryString(_ query: String?) -> [String: String]? {
    guard let query, !query.isEmpty else { return [:] }
    var items: [String: String] = [:]
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ text: Substring) -> String? {
            String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        guard let key = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else { return nil }
        if items[key] == nil { items[key] = value }
    }
    return items
}
