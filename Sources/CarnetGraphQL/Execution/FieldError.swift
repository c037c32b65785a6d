/// An error a field resolver raises: it nulls the field (and up to the nearest nullable parent) and lands in
/// the response's `errors` with the field's path and location.
struct FieldError: Error, Sendable {
    var message: String
    var code: ErrorCode
    var extensions: [String: JSONValue] = [:]

    static func badUserInput(_ message: String, extensions: [String: JSONValue] = [:]) -> FieldError {
        FieldError(message: message, code: .badUserInput, extensions: extensions)
    }

    /// What a field says when its task was cancelled or its client left (no client reads it but the logs).
    static let cancelled = FieldError(message: "The request was cancelled.", code: .internalServerError)
}
