import Logging

extension Logger {
    /// This logger, at `.debug` when it was set to `.trace`: what Hummingbird and its WebSocket layer are given.
    /// Their trace lines print the first bytes of every WebSocket frame, and a client that fragments its messages
    /// chooses which bytes those are: a token in `connection_init`, variables, contact data (an outside tester's
    /// find). Carnet's own lines never hold such data at any level.
    var cappedAtDebug: Logger {
        var capped = self
        if capped.logLevel < .debug { capped.logLevel = .debug }
        return capped
    }
}
