import CarnetServer

/// Shared helpers for the server's tests (the server issue fills this target).
enum ServerTestSupport {
    static var schema: String { CarnetServer.schemaSDL }
}
