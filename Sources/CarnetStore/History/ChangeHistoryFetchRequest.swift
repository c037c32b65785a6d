/// A change history fetch (`CNChangeHistoryFetchRequest`).
public struct ChangeHistoryFetchRequest: Sendable, Hashable {
    /// Where the client's replica stands. `nil`, malformed, another store's, or expired: a full sync
    /// (drop everything, then an add event for every record).
    public var startingToken: String?
    /// Include group, and membership events. Default `false`.
    public var includeGroupChanges: Bool
    /// Leave out events saved by these transaction authors (a client's own writes).
    public var excludedAuthors: Set<String>
    /// The keys to fetch for the contacts of add and update events.
    public var contactKeys: ContactKeySet
    /// The most events in one page; continue with ``ChangeHistoryPage/token`` while ``ChangeHistoryPage/hasMore``.
    public var limit: Int
    /// Report unified contacts (`CNChangeHistoryFetchRequest.shouldUnifyResults`, see ``UnifiedHistory``): off by
    /// default in the store, on by default in the GraphQL API.
    public var unifyResults = false
    /// Keeps membership events of identifiers that are no contact (unified contacts': a link change logs them so
    /// that unified clients hear of the unified contact's groups) as removals, for ``UnifiedHistory`` to state
    /// again; an individual page drops them.
    package var keepsUnknownMemberships = false
    /// What a subscription sent before: an excluded author's event about one of these is delivered all the same
    /// (see ``ExclusionGuard``).
    package var exclusionGuard = ExclusionGuard()

    public init(
        startingToken: String? = nil, includeGroupChanges: Bool = false, excludedAuthors: Set<String> = [],
        contactKeys: ContactKeySet = [], limit: Int = 1000
    ) {
        self.startingToken = startingToken
        self.includeGroupChanges = includeGroupChanges
        self.excludedAuthors = excludedAuthors
        self.contactKeys = contactKeys
        self.limit = limit
    }
}

/// One change history event, coalesced per record.
public struct ChangeHistoryEvent: Sendable {
    public var kind: ChangeEventKind
    /// For contact and membership events.
    public var contactIdentifier: String?
    /// For group and membership events.
    public var groupIdentifier: String?
    /// For add events: where the record was added.
    public var containerIdentifier: String?
    /// For contact updates: the keys that changed.
    public var changedKeys: [ContactKey]
    /// The transaction author of the save that gave the event its kind (``HistoryCoalescer``, ``MembershipAuthors``);
    /// `nil` for none and for snapshot events.
    public var author: String?
    /// For add and update contact events: the contact now, with the requested keys.
    public var contact: Contact?
    /// For add and update group events: the group now.
    public var group: Group?
    /// For `dropEverything`: why the client's token could not continue its replica.
    public var dropReason: DropEverythingReason?

    package init(
        kind: ChangeEventKind, contact: String? = nil, group: String? = nil, container: String? = nil,
        changedKeys: [ContactKey] = [], author: String? = nil
    ) {
        self.kind = kind
        self.contactIdentifier = contact
        self.groupIdentifier = group
        self.containerIdentifier = container
        self.changedKeys = changedKeys
        self.author = author
    }
}

/// Why a change history fetch starts a full sync (``ChangeEventKind/dropEverything``).
public enum DropEverythingReason: String, Sendable, Hashable, CaseIterable {
    /// The client sent no token: its first sync.
    case noToken
    /// The token is not one this software wrote (damaged or made up).
    case malformedToken
    /// The token is another store's (the data was replaced or restored from a backup, which has an identifier of its
    /// own, or the client talks to another server).
    case otherStore
    /// The history the token points into was compacted (older than the retention period).
    case expiredToken
    /// The token is ahead of the store's history, or stands where the store now has another commit: the store's
    /// files were put back from an earlier copy of their own (and may have gone on since).
    case tokenAhead
}

/// A page of change history.
public struct ChangeHistoryPage: Sendable {
    public var events: [ChangeHistoryEvent]
    /// Fetch the next page, or later changes, from here. Save it with the data the events produced.
    public var token: String
    /// Whether more events are waiting now (fetch again with ``token`` right away).
    public var hasMore: Bool
    /// A unified page's events in terms of individual contacts, the identifiers the backend excludes by, for
    /// ``ExclusionGuard``: the events the backend read, and for each unified contact or membership the page sends,
    /// the same event for each of its members (the client now holds all of them as they were).
    package var individualEvents: [ChangeHistoryEvent]?

    package init(events: [ChangeHistoryEvent], token: String, hasMore: Bool) {
        self.events = events
        self.token = token
        self.hasMore = hasMore
    }
}

/// What ``CarnetStore/changes()`` yields after each commit.
public struct StoreChange: Sendable, Hashable {
    /// The current history token after the commits this covers.
    public var token: String
    /// The transaction authors of those commits (`nil` where a save had none).
    public var authors: [String?]
    /// The latest revision covered.
    public var revision: Int64
    /// When this process learned of the earliest commit covered: right after the commit for its own saves, at
    /// the wake-up or poll that found it for another process's. What a subscriber's delivery latency counts from.
    public var noticedAt: ContinuousClock.Instant?

    package init(token: String, authors: [String?], revision: Int64, noticedAt: ContinuousClock.Instant? = nil) {
        self.token = token
        self.authors = authors
        self.revision = revision
        self.noticedAt = noticedAt
    }
}
