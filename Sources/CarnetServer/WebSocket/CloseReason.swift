/// A close frame's reason as RFC 6455 allows it: a control frame's payload is at most 125 bytes, two of them the
/// code, so a reason that echoes a client's text (a subscription id, a message type) is cut to 123 bytes of UTF-8
/// at a character's end. A longer frame made clients fail the connection (1002) before they saw the code.
enum CloseReason {
    static let maxBytes = 123

    static func fitted(_ reason: String) -> String {
        guard reason.utf8.count > maxBytes else { return reason }
        var result = ""
        var bytes = 0
        for character in reason {
            let size = character.utf8.count
            guard bytes + size <= maxBytes - 3 else { break }
            result.append(character)
            bytes += size
        }
        return result + "..."
    }
}
