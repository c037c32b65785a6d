/// What author exclusion must not hide from a subscription: the client's own events about anything the client may
/// hold a stale state of.
///
/// A client that excludes its own author applies its own save results at once. A payload produced before such a
/// save can reach it after, and leave it with an older state than its own save wrote; the client's own event, the one
/// that would put it right, is the one exclusion leaves out. Delivering one of the client's own events is always safe
/// (it carries the record as it is now); leaving one out is safe only where no earlier payload can be stale. So an
/// excluded author's event is still delivered:
/// - about a record or membership this subscription sent before (a payload of it may be the stale one); a unified
///   contact or membership sent counts as sent for each of its members, since the backends exclude by those;
/// - about anything, once this subscription sent a full sync (`dropEverything`, produced before the client's save,
///   wipes what the client applied of it, and the snapshot after it was read before the save);
/// - when committed before the subscription started (``catchUpPosition``): a client resubscribing from its token may
///   have applied a stale payload of its last subscription, or its full sync, after its own saves.
///
/// The sent records are a Bloom filter of fixed size: it can say "sent" for a record that was not (the client then
/// receives one of its own events it could have done without), never the reverse, and its memory does not grow with
/// the book. A client pulling over HTTP has no payload in flight while it saves (it pulls and saves in turn), so a
/// pull excludes plainly.
package struct ExclusionGuard: Sendable, Hashable {
    /// 2^16 bits (8 KiB), allocated on the first record: with 3 bits per record, under 1% of unsent records read as
    /// sent up to about 5,000 records sent (a fifth of them at 20,000, which only costs the client echoes of its own
    /// saves).
    private static let bitCount = 1 << 16
    private var words: [UInt64] = []
    /// Whether a full sync was sent: every record counts as sent.
    private var everything = false
    /// The history position when the subscription started: events up to it are never excluded.
    package var catchUpPosition: Int64 = 0

    package init() {}

    /// Whether it never keeps an event that exclusion would leave out (the backends' fast path).
    package var keepsNone: Bool { words.isEmpty && !everything && catchUpPosition == 0 }

    /// Whether an excluded author's raw history event (as the backends store it: `recordId`, and the group of a
    /// membership in `otherId`) at `position` must be delivered all the same.
    package func keeps(position: Int64, kind: ChangeEventKind, recordId: String, otherId: String?) -> Bool {
        position <= catchUpPosition || mayContain(kind: kind, recordId: recordId, otherId: otherId)
    }

    /// Records the records and memberships of a page's events.
    package mutating func insert(_ events: [ChangeHistoryEvent]) {
        for event in events {
            switch event.kind {
            case .addContact, .updateContact, .deleteContact:
                if let contact = event.contactIdentifier { insert(Self.hash(0, contact, nil)) }
            case .addGroup, .updateGroup, .deleteGroup:
                if let group = event.groupIdentifier { insert(Self.hash(1, group, nil)) }
            case .addMemberToGroup, .removeMemberFromGroup:
                // The contact and the group too: deleting either ends the membership without an event of its own,
                // so their deletes are what put a stale membership right.
                if let contact = event.contactIdentifier, let group = event.groupIdentifier {
                    insert(Self.hash(2, contact, group))
                    insert(Self.hash(0, contact, nil))
                    insert(Self.hash(1, group, nil))
                }
            case .dropEverything:
                everything = true
                words = []
                return
            }
        }
    }

    /// Whether the record of a raw history event may have been sent.
    package func mayContain(kind: ChangeEventKind, recordId: String, otherId: String?) -> Bool {
        if everything { return true }
        guard !words.isEmpty else { return false }
        switch kind {
        case .addContact, .updateContact, .deleteContact, .dropEverything: return contains(Self.hash(0, recordId, nil))
        case .addGroup, .updateGroup, .deleteGroup: return contains(Self.hash(1, recordId, nil))
        case .addMemberToGroup, .removeMemberFromGroup:
            // The contact's record sent is enough: a unified page sends a member's delete as the stand-in for its
            // joining a unified contact, and a payload with that stand-in, arriving late, takes the member's
            // memberships away from a client that read them again after its own save.
            return contains(Self.hash(2, recordId, otherId ?? "")) || contains(Self.hash(0, recordId, nil))
        }
    }

    private func contains(_ hash: UInt64) -> Bool {
        Self.bitShifts.allSatisfy { shift in
            let bit = Self.bit(hash, shift)
            return words[bit >> 6] & (1 << UInt64(bit & 63)) != 0
        }
    }

    private mutating func insert(_ hash: UInt64) {
        guard !everything else { return }
        if words.isEmpty { words = Array(repeating: 0, count: Self.bitCount / 64) }
        for shift in Self.bitShifts {
            let bit = Self.bit(hash, shift)
            words[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// A record's three bit positions are three 16-bit slices of its hash.
    private static let bitShifts: [UInt64] = [0, 16, 32]

    private static func bit(_ hash: UInt64, _ shift: UInt64) -> Int { Int((hash >> shift) & 0xFFFF) }

    /// FNV-1a over a tag and the identifiers: stable (`Hasher` is seeded per process, which would do too, but a
    /// fixed hash keeps a failing test's filter reproducible).
    private static func hash(_ tag: UInt8, _ first: String, _ second: String?) -> UInt64 {
        var hash = FNV1a()
        hash.combine(tag)
        hash.combine(first.utf8)
        hash.combine(0)
        hash.combine((second ?? "").utf8)
        // FNV's low bits mix poorly for short inputs: fold the high half in before the bits are taken.
        return (hash.value ^ (hash.value >> 29)) &* 0xbf58_476d_1ce4_e5b9
    }
}
