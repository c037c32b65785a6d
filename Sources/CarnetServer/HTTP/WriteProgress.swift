import NIOCore

/// How a handler's writes are getting out: how many it passed on are not done yet, and when one last completed
/// (or, when none waited, when the first of those now waiting was passed on). ``WriteStallTimeout`` judges a
/// connection's bytes by it and ``HTTPIdleTimeout`` an HTTP answer's parts, so both count progress alike.
///
/// Progress is counted in slices: a large write is passed on in parts of at most ``slice`` bytes, each with its own
/// promise, so one large answer read slowly but steadily makes progress as it goes.
struct WriteProgress {
    /// The most bytes one write passed on carries: the unit of progress.
    static let slice = 16 * 1_024

    /// Writes passed on and not yet done.
    private(set) var outstanding = 0
    /// When a write last completed, or the first of the outstanding ones was passed on.
    private(set) var last = NIODeadline.uptimeNanoseconds(0)

    /// Whether writes wait to go out.
    var isWaiting: Bool { outstanding > 0 }

    /// A write is passed on.
    mutating func began(at now: NIODeadline) {
        if outstanding == 0 { last = now }
        outstanding += 1
    }

    /// A write passed on is done (written or failed with the channel).
    mutating func ended(at now: NIODeadline) {
        outstanding -= 1
        last = now
    }

    /// Calls `pass` with `buffer` in order, in parts of at most ``slice`` bytes; `isLast` marks the part the
    /// caller's promise belongs to (a part fails only with the channel, so the last part's outcome is the write's).
    static func forEachSlice(of buffer: ByteBuffer, _ pass: (_ part: ByteBuffer, _ isLast: Bool) -> Void) {
        var buffer = buffer
        while buffer.readableBytes > Self.slice, let part = buffer.readSlice(length: Self.slice) {
            pass(part, false)
        }
        pass(buffer, true)
    }
}
