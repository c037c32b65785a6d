/// A set of ``ContactKey``s, stored as a bit set so membership tests on hot read paths cost one AND.
public struct ContactKeySet: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral {
    public private(set) var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public init(_ keys: some Sequence<ContactKey>) {
        self.rawValue = keys.reduce(0) { $0 | Self.bit($1) }
    }

    public init(arrayLiteral elements: ContactKey...) { self.init(elements) }

    /// Every key of a contact.
    public static let all = ContactKeySet(ContactKey.allCases)

    /// The multi-value keys.
    public static let multiValues = ContactKeySet(ContactKey.multiValueKeys)

    /// The single-value string keys.
    public static let strings = ContactKeySet(ContactKey.stringKeys)

    /// The keys that feed the name search index and the sort keys.
    public static let names = ContactKeySet(ContactKey.searchableNameKeys + [.namePrefix, .nameSuffix])

    private static func bit(_ key: ContactKey) -> UInt64 { 1 << UInt64(key.ordinal) }

    public var isEmpty: Bool { rawValue == 0 }
    public var count: Int { rawValue.nonzeroBitCount }

    public func contains(_ key: ContactKey) -> Bool { rawValue & Self.bit(key) != 0 }
    public mutating func insert(_ key: ContactKey) { rawValue |= Self.bit(key) }
    public mutating func remove(_ key: ContactKey) { rawValue &= ~Self.bit(key) }

    public func union(_ other: ContactKeySet) -> ContactKeySet { .init(rawValue: rawValue | other.rawValue) }
    public func intersection(_ other: ContactKeySet) -> ContactKeySet { .init(rawValue: rawValue & other.rawValue) }
    public func subtracting(_ other: ContactKeySet) -> ContactKeySet { .init(rawValue: rawValue & ~other.rawValue) }
    public func isSubset(of other: ContactKeySet) -> Bool { rawValue & ~other.rawValue == 0 }
    public mutating func formUnion(_ other: ContactKeySet) { rawValue |= other.rawValue }

    /// The keys in ``ContactKey/allCases`` order.
    public var keys: [ContactKey] { ContactKey.allCases.filter(contains) }

    public func makeIterator() -> IndexingIterator<[ContactKey]> { keys.makeIterator() }
}
