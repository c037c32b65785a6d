import CarnetServer

/// Shared helpers for the server's tests (the server issue fills this target).
enum ServerTestSupport {
    static let version = CarnetServer.version
}
