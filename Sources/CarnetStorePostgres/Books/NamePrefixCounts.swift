import Synchronization

/// How many contacts of a book have a name prefix, as last read from `contact_name_prefix_count`, shared by the
/// backend's stores: a search of several words reads its rarest word's rows, and a count a minute old chooses as
/// well as an exact one, without a round trip to the database for every search typed.
final class NamePrefixCounts: Sendable {
    private struct Key: Hashable {
        let book: String
        let prefix: String
    }

    /// Entries kept at most, over all books (a few megabytes); past it the cache starts again empty.
    static let capacity = 65_536
    /// How long a count is used before it is read again.
    static let lifetime = Duration.seconds(60)

    private let entries = Mutex<[Key: (contacts: Int64, read: ContinuousClock.Instant)]>([:])

    /// The counts still fresh at `now`, by prefix.
    func cached(book: String, prefixes: Set<String>, now: ContinuousClock.Instant) -> [String: Int64] {
        entries.withLock { entries in
            var found: [String: Int64] = [:]
            for prefix in prefixes {
                if let entry = entries[Key(book: book, prefix: prefix)], now - entry.read < Self.lifetime {
                    found[prefix] = entry.contacts
                }
            }
            return found
        }
    }

    func remember(book: String, counts: [String: Int64], read: ContinuousClock.Instant) {
        entries.withLock { entries in
            if entries.count + counts.count > Self.capacity { entries.removeAll(keepingCapacity: true) }
            for (prefix, contacts) in counts { entries[Key(book: book, prefix: prefix)] = (contacts, read) }
        }
    }
}
