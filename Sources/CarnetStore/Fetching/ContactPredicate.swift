/// Which contacts a fetch matches. Every condition that is set must hold (they combine with AND);
/// the empty predicate matches every contact.
public struct ContactPredicate: Sendable, Hashable {
    /// Every word must prefix-match a word of some name field (given, middle, family, previous family,
    /// nickname, organization, phonetic names), ignoring case and diacritics: `"ann sm"` finds "Anna Smith".
    /// Words are those of ``TextFolding/words(_:)`` on every backend.
    public var matchingName: String?
    /// A case-insensitive exact match on one of the contact's email addresses.
    public var matchingEmailAddress: String?
    /// A formatting-insensitive match on one of the contact's phone numbers (their national numbers compare: `TextFolding.phoneKey`).
    public var matchingPhoneNumber: String?
    /// Only these contacts.
    public var identifiers: [String]?
    /// Only members of this group.
    public var groupIdentifier: String?
    /// Only contacts of this container.
    public var containerIdentifier: String?
    /// All but the linked contacts that do not stand for their unified contact (every member but the one preferred
    /// for name), or the name-preferred members of unified contacts that match: how a unified fetch pages its
    /// unified contacts by their name-preferred members.
    package var linkedMembers: LinkedMembers?

    /// Which linked contacts a predicate keeps (``ContactPredicate/linkedMembers``).
    package indirect enum LinkedMembers: Sendable, Hashable {
        /// Contacts that are not linked, and each unified contact's name-preferred member.
        case excluded
        /// The name-preferred members of the unified contacts that meet the predicate as unified contacts: each of
        /// its ``ContactPredicate/memberConditions`` met by one of their members (each by any), its
        /// ``ContactPredicate/ownConditions`` by the name-preferred member. Where a unified search places the unified
        /// contacts it finds through other members, in one query a page. The rest of this predicate must be empty.
        case standingForOthersMatching(ContactPredicate)
    }

    public init(
        matchingName: String? = nil, matchingEmailAddress: String? = nil, matchingPhoneNumber: String? = nil,
        identifiers: [String]? = nil, groupIdentifier: String? = nil, containerIdentifier: String? = nil
    ) {
        self.matchingName = matchingName
        self.matchingEmailAddress = matchingEmailAddress
        self.matchingPhoneNumber = matchingPhoneNumber
        self.identifiers = identifiers
        self.groupIdentifier = groupIdentifier
        self.containerIdentifier = containerIdentifier
    }

    /// Matches every contact.
    public static let all = ContactPredicate()

    /// Refuses predicates no client needs and a database should not be asked: huge strings and identifier lists.
    package func validateLimits() throws {
        for (name, text) in [
            ("matchingName", matchingName), ("matchingEmailAddress", matchingEmailAddress),
            ("matchingPhoneNumber", matchingPhoneNumber), ("groupIdentifier", groupIdentifier),
            ("containerIdentifier", containerIdentifier),
        ]
        where (text?.utf8.count ?? 0) > StoreLimits.singleLineBytes {
            throw StoreError(.predicateInvalid, "\(name) is longer than \(StoreLimits.singleLineBytes) bytes")
        }
        if let name = matchingName, TextFolding.words(name).count > StoreLimits.nameSearchWords {
            throw StoreError(.predicateInvalid, "matchingName has more than \(StoreLimits.nameSearchWords) words")
        }
        if (identifiers?.count ?? 0) > StoreLimits.pageSize {
            throw StoreError(.predicateInvalid, "At most \(StoreLimits.pageSize) identifiers")
        }
    }

    public static func matchingName(_ name: String) -> Self { .init(matchingName: name) }
    public static func matchingEmailAddress(_ email: String) -> Self { .init(matchingEmailAddress: email) }
    public static func matchingPhoneNumber(_ phone: String) -> Self { .init(matchingPhoneNumber: phone) }
    public static func withIdentifiers(_ identifiers: [String]) -> Self { .init(identifiers: identifiers) }
    public static func inGroup(_ identifier: String) -> Self { .init(groupIdentifier: identifier) }
    public static func inContainer(_ identifier: String) -> Self { .init(containerIdentifier: identifier) }

    /// Both predicates' conditions. Where both set the same condition, `other`'s wins.
    public func and(_ other: ContactPredicate) -> ContactPredicate {
        ContactPredicate(
            matchingName: other.matchingName ?? matchingName,
            matchingEmailAddress: other.matchingEmailAddress ?? matchingEmailAddress,
            matchingPhoneNumber: other.matchingPhoneNumber ?? matchingPhoneNumber,
            identifiers: other.identifiers ?? identifiers,
            groupIdentifier: other.groupIdentifier ?? groupIdentifier,
            containerIdentifier: other.containerIdentifier ?? containerIdentifier)
    }

    /// The conditions on a contact's values and memberships (email, phone, group, name: the most selective first),
    /// each alone. A unified contact meets each through any of its members, as its values and groups are theirs
    /// together; different members may meet different conditions.
    package var memberConditions: [ContactPredicate] {
        var conditions: [ContactPredicate] = []
        if let email = matchingEmailAddress { conditions.append(.matchingEmailAddress(email)) }
        if let phone = matchingPhoneNumber { conditions.append(.matchingPhoneNumber(phone)) }
        if let group = groupIdentifier { conditions.append(.inGroup(group)) }
        if let name = matchingName { conditions.append(.matchingName(name)) }
        return conditions
    }

    /// The conditions on a contact itself (identifiers, container). A unified contact meets them through its
    /// name-preferred member, whose container is its own and whose place a filter's identifiers name
    /// (``UnifiedFetch``: a unified or member identifier becomes that member's).
    package var ownConditions: ContactPredicate {
        ContactPredicate(identifiers: identifiers, containerIdentifier: containerIdentifier)
    }

    /// Whether only a container (or nothing) is asked: every unified contact then has its name-preferred member
    /// among the matches, in its place.
    package var isContainerOrAll: Bool {
        matchingName == nil && matchingEmailAddress == nil && matchingPhoneNumber == nil && identifiers == nil
            && groupIdentifier == nil
    }
}

/// The order of fetched contacts (`CNContactSortOrder`). Names compare ignoring case and diacritics; a contact
/// without a personal name sorts by organization name; ties break by identifier.
public enum ContactSortOrder: String, Sendable, Hashable, CaseIterable {
    /// Creation order (cheapest).
    case none
    /// The store's setting (``CarnetStore/userDefaultSortOrder()``).
    case userDefault
    case givenName
    case familyName
}

/// Which slice of the matches to return. Cursors come from an earlier ``ContactPage``.
public enum PageRequest: Sendable, Hashable {
    /// The first `count` matches after `cursor` (from the start when `nil`).
    case first(Int, after: String? = nil)
    /// The last `count` matches before `cursor` (from the end when `nil`).
    case last(Int, before: String? = nil)
}

/// A contact fetch (`CNContactFetchRequest`): which contacts, which keys, in which order, which page.
public struct ContactFetchRequest: Sendable, Hashable {
    public var predicate: ContactPredicate
    /// Only these keys are read from the database; reading another key of a result traps.
    public var keysToFetch: ContactKeySet
    public var sortOrder: ContactSortOrder
    public var page: PageRequest
    /// Also count every match (costs a second query).
    public var includeTotalCount: Bool
    /// Return unified contacts (`CNContactFetchRequest.unifyResults`): linked contacts come as one contact with
    /// their values put together (``UnifiedContact``), once, in the place of the member preferred for name, when
    /// any member matches. Off by default in the store; the GraphQL API turns it on by default, as Apple does.
    public var unifyResults: Bool = false

    public init(
        predicate: ContactPredicate = .all, keysToFetch: ContactKeySet, sortOrder: ContactSortOrder = .none,
        page: PageRequest = .first(100), includeTotalCount: Bool = false
    ) {
        self.predicate = predicate
        self.keysToFetch = keysToFetch
        self.sortOrder = sortOrder
        self.page = page
        self.includeTotalCount = includeTotalCount
    }
}

/// One page of fetched contacts.
public struct ContactPage: Sendable {
    public var contacts: [Contact]
    /// Where each contact stands in the order; cursors are made from these only when asked for.
    package var positions: [ContactCursor]
    /// The store the page comes from, which its cursors are bound to (set by the backend's fetch).
    package var storeID = ""
    /// The cursor of each contact, in the same order; pass one back to continue after (or before) it.
    public var cursors: [String] { positions.map { $0.encoded(storeID: storeID) } }
    /// The cursor of the contact at `index`.
    public func cursor(at index: Int) -> String { positions[index].encoded(storeID: storeID) }
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    /// Set when the request asked for it.
    public var totalCount: Int?

    package init(
        contacts: [Contact], positions: [ContactCursor], hasNextPage: Bool, hasPreviousPage: Bool,
        totalCount: Int? = nil
    ) {
        self.contacts = contacts
        self.positions = positions
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }
}
