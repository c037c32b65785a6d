/// A fault of Carnet's own on a request path, such as a planner that did not fetch a key its writer reads: the
/// field fails with `INTERNAL_SERVER_ERROR` and the service's unexpected-error handler logs the reason at `.error`.
/// Where the store would trap on misuse (reading a key that was not fetched, as `CNContact` does), the executor
/// checks first and raises this instead, so no request can stop the process.
public struct ExecutionFault: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming types, fields and keys only: never contact data.
    public let description: String

    init(_ description: String) { self.description = description }
}
