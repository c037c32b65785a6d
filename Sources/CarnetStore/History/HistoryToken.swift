/// A position in a store's change history, as an opaque string that survives restarts.
///
/// An incremental token says "every event up to `position` has been seen". A snapshot token continues a full
/// sync: it carries the history position the snapshot started at and where the enumeration stopped.
///
/// Each token also carries the ``mark`` of the commit at its position. A book file put back from an earlier copy of
/// itself keeps its store identifier and hands out the same positions again for different commits; without the mark,
/// a replica's token from before the restore would be taken as a point in the new history once that history passed
/// it, and the replica would silently keep what the restored book no longer has.
package struct HistoryToken: Hashable, Sendable {
    package enum Phase: Int, Sendable {
        case contacts = 0
        case groups = 1
        case members = 2
    }

    package struct Snapshot: Hashable, Sendable {
        package var phase: Phase
        package var afterFirst: Int64
        package var afterSecond: Int64

        package init(phase: Phase, afterFirst: Int64, afterSecond: Int64) {
            self.phase = phase
            self.afterFirst = afterFirst
            self.afterSecond = afterSecond
        }
    }

    package var storeID: String
    package var position: Int64
    /// The ``mark(revision:timestamp:)`` of the commit holding the event at `position`; `nil` at position 0, in
    /// tokens written before marks (versions 1 and 2), and where the store could not tell.
    package var mark: UInt64?
    package var snapshot: Snapshot?

    package init(storeID: String, position: Int64, mark: UInt64? = nil, snapshot: Snapshot? = nil) {
        self.storeID = storeID
        self.position = position
        self.mark = mark
        self.snapshot = snapshot
    }

    /// A commit's fingerprint: its revision and its time. Both backends keep both exactly (``ArchivedTransaction``
    /// copies them), so a token survives `carnet migrate-store`; a commit made after a restore at a position it
    /// had before differs in its time.
    package static func mark(revision: Int64, timestamp: Double) -> UInt64 {
        var hash = FNV1a()
        hash.combine(String(revision).utf8)
        hash.combine(CollectionOfOne(UInt8(ascii: "|")))
        hash.combine(String(timestamp.bitPattern, radix: 16).utf8)
        return hash.value
    }

    /// Whether the store's commit at ``position`` (its mark, `nil` when the store cannot tell) is the one this token
    /// was written at. A token without a mark is taken on trust, as before marks.
    package func agrees(withStoredMark stored: UInt64?) -> Bool {
        guard let mark, let stored else { return true }
        return mark == stored
    }

    /// The token as the client sees it: its fields, then a checksum of them, in base64url. The checksum is what
    /// tells a damaged token (one edited digit in a full sync's cursor would skip records silently) from one this
    /// software wrote.
    package var encoded: String {
        var text = "3|\(storeID)|\(position)|" + (mark.map { Self.hex($0) } ?? "")
        if let snapshot { text += "|\(snapshot.phase.rawValue)|\(snapshot.afterFirst)|\(snapshot.afterSecond)" }
        text += "|" + Self.checksum(text.utf8)
        return Base64URL.encode(text.utf8)
    }

    /// Decodes a token; `nil` when it is not one this software wrote. Version 1 tokens (before checksums) and
    /// version 2 (before marks) are still read, so replicas continue across the upgrade; every page since writes
    /// version 3.
    package init?(encoded: String) {
        guard encoded.utf8.count <= 256 else { return nil }
        guard let text = Base64URL.decodeText(encoded) else { return nil }
        var parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "1":
            guard parts.count == 3 || parts.count == 6 else { return nil }
        case "2", "3":
            let fields = parts[0] == "2" ? 4 : 5
            guard parts.count == fields || parts.count == fields + 3, let check = parts.popLast(),
                check == Self.checksum(text.utf8.dropLast(check.utf8.count + 1))
            else { return nil }
            if fields == 5 {
                let mark = parts.remove(at: 3)
                if !mark.isEmpty {
                    guard mark.utf8.count == 16, let value = UInt64(mark, radix: 16) else { return nil }
                    self.mark = value
                }
            }
        default:
            return nil
        }
        guard let position = Int64(parts[2]), position >= 0 else { return nil }
        self.storeID = parts[1]
        self.position = position
        if parts.count == 6 {
            guard let phase = Int(parts[3]).flatMap(Phase.init(rawValue:)), let first = Int64(parts[4]),
                let second = Int64(parts[5])
            else { return nil }
            self.snapshot = Snapshot(phase: phase, afterFirst: first, afterSecond: second)
        }
    }

    /// 64-bit FNV-1a as 16 hex digits: not a secret (a token only ever reads its own book, which the request is
    /// already allowed to read), but every one-byte change alters it, and random damage passes once in 2^64.
    private static func checksum(_ bytes: some Sequence<UInt8>) -> String {
        var hash = FNV1a()
        hash.combine(bytes)
        return hex(hash.value)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Whether a client's history token continues its replica, and if not, why it must start over.
package enum HistoryTokenUse {
    case usable(HistoryToken)
    case unusable(DropEverythingReason)
}

extension HistoryToken {
    /// Classifies a client's token against the store's identity and the history it still holds: the same rules on
    /// every backend.
    package static func classify(_ text: String?, storeID: String, oldest: Int64, current: Int64) -> HistoryTokenUse {
        guard let text, !text.isEmpty else { return .unusable(.noToken) }
        guard let token = HistoryToken(encoded: text) else { return .unusable(.malformedToken) }
        guard token.storeID == storeID else { return .unusable(.otherStore) }
        guard token.position >= oldest else { return .unusable(.expiredToken) }
        guard token.position <= current else { return .unusable(.tokenAhead) }
        return .usable(token)
    }
}
