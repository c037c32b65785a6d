/// An error a field resolver raises: it nulls the field (and up to the nearest nullable parent) and lands in
/// the response's `errors` with the field's path and location.
struct FieldError: Error, Sendable {
    var message: String
    var code: ErrorCode
    var extensions: [String: JSONValue] = [:]

    static func badUserInput(_ message: String, extensions: [String: JSONValue] = [:]) -> FieldError {
        FieldError(message: message, code: .badUserInput, extensions: extensions)
    }
}
