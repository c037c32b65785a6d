import Testing

@testable import CarnetServer

/// A close frame's payload is at most 125 bytes (RFC 6455 §5.5), two of them the code: a reason that echoes a
/// client's text must fit, or the client fails the connection (1002) without seeing the close code.
@Suite("WebSocket close reasons")
struct CloseReasonTests {
    @Test("Reasons are cut to 123 bytes at a character's end; short ones stay as they are")
    func fitted() {
        #expect(CloseReason.fitted("Subscriber for a already exists") == "Subscriber for a already exists")
        for reason in [
            "Subscriber for " + String(repeating: "é", count: 100) + " already exists",
            String(repeating: "x", count: 124), String(repeating: "👩‍👩‍👧", count: 40), String(repeating: "a", count: 123),
        ] {
            let fitted = CloseReason.fitted(reason)
            #expect(fitted.utf8.count <= 123, "\(reason.utf8.count) bytes")
            #expect(reason.utf8.count <= 123 ? fitted == reason : fitted.hasSuffix("..."))
            #expect(reason.hasPrefix(fitted.hasSuffix("...") ? String(fitted.dropLast(3)) : fitted))
        }
    }
}
