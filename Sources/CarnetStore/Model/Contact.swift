import Foundation

/// A person or organization record, modeled on `CNContact`.
///
/// A contact read from the store holds only the keys that were fetched (``availableKeys``); reading any other
/// key is a programming error and traps, as `CNPropertyNotFetchedException` does in the Contacts framework.
/// Check ``isKeyAvailable(_:)`` first when unsure.
///
/// Setting a property marks its key as modified (``modifiedKeys``). An update saves exactly the modified keys,
/// so a contact fetched with ten keys and given a new `givenName` changes `givenName` only.
public struct Contact: Sendable, Hashable, Identifiable {
    public static func == (lhs: Contact, rhs: Contact) -> Bool {
        lhs.identifier == rhs.identifier && lhs.availableKeys == rhs.availableKeys
            && lhs.modifiedKeys == rhs.modifiedKeys
            && lhs.containerIdentifier == rhs.containerIdentifier && lhs.revision == rhs.revision
            && lhs.createdAt == rhs.createdAt && lhs.modifiedAt == rhs.modifiedAt
            && (lhs.storage === rhs.storage || lhs.storage.values == rhs.storage.values)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(revision)
        hasher.combine(storage.values)
    }

    /// The stable identifier: assigned when the value is created, kept by the store, never reused.
    public let identifier: String
    public var id: String { identifier }

    /// The keys whose values this instance holds.
    public package(set) var availableKeys: ContactKeySet
    /// The keys set since the instance was created or fetched; an update writes these.
    public package(set) var modifiedKeys: ContactKeySet = []

    /// The container the contact belongs to; `nil` for a contact not saved yet.
    public package(set) var containerIdentifier: String?
    /// Changes with every committed change to the contact; `0` for a contact not saved yet.
    public package(set) var revision: Int64 = 0
    public package(set) var createdAt: Date?
    /// For a unified contact (fetched with unification on), its member contacts' identifiers, oldest first; empty
    /// for a contact that stands alone.
    public package(set) var linkedContactIdentifiers: [String] = []
    /// Whether this is a unified contact: the values of linked contacts put together (``LinkGroup``).
    public var isUnified: Bool { !linkedContactIdentifiers.isEmpty }
    public package(set) var modifiedAt: Date?

    /// The values live in a copy-on-write box: contacts are copied often (pages, events, writers) and a copy should
    /// cost one retain, not one per property.
    private var storage = ValuesBox(Values())

    package var values: Values {
        _read { yield storage.values }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = ValuesBox(storage.values) }
            yield &storage.values
        }
    }

    package final class ValuesBox: @unchecked Sendable {
        // Mutated only through `values`' modify accessor, which copies a shared box first.
        var values: Values
        init(_ values: Values) { self.values = values }
    }
    /// Whether ``identifier`` was made by ``makeIdentifier()`` in this process: a fresh UUID needs no check
    /// against identifiers in use or retired.
    package let hasFreshIdentifier: Bool

    /// The storage of every key; the public accessors guard it with ``availableKeys``.
    package struct Values: Sendable, Hashable {
        package var contactType = ContactType.person
        package var strings = [String](repeating: "", count: ContactKey.stringKeys.count)
        package var birthday: ContactDate?
        package var nonGregorianBirthday: ContactDate?
        package var imageData: Data?
        package var thumbnailImageData: Data?
        package var imageDataAvailable = false
        var phoneNumbers: [LabeledValue<String>] = []
        var emailAddresses: [LabeledValue<String>] = []
        var postalAddresses: [LabeledValue<PostalAddress>] = []
        var urlAddresses: [LabeledValue<String>] = []
        var dates: [LabeledValue<ContactDate>] = []
        var contactRelations: [LabeledValue<ContactRelation>] = []
        var socialProfiles: [LabeledValue<SocialProfile>] = []
        var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
        var vCardProperties: [LabeledValue<String>] = []
    }

    /// A new contact, to be added with a save request. Every key is available and empty.
    ///
    /// - Parameters:
    ///   - identifier: Leave it `nil` (a fresh UUID) unless the record already has an identifier elsewhere,
    ///     such as a vCard UID. The store refuses an identifier that is or was in use.
    ///   - contactType: Person or organization.
    public init(identifier: String? = nil, contactType: ContactType = .person) {
        self.identifier = identifier ?? Contact.makeIdentifier()
        self.hasFreshIdentifier = identifier == nil
        self.availableKeys = .all
        self.values.contactType = contactType
        if contactType != .person { modifiedKeys.insert(.contactType) }
    }

    /// A partial contact that describes an update to the contact `identifier`: no key is available until set,
    /// and the keys that get set are the ones the update changes.
    public init(updating identifier: String) {
        self.identifier = identifier
        self.hasFreshIdentifier = false
        self.availableKeys = []
    }

    package init(fetched identifier: String, keys: ContactKeySet) {
        self.identifier = identifier
        self.hasFreshIdentifier = false
        self.availableKeys = keys
    }

    /// A fresh record identifier.
    public static func makeIdentifier() -> String { IdentifierClock.next() }

    /// Whether the key's value was fetched or set.
    public func isKeyAvailable(_ key: ContactKey) -> Bool { availableKeys.contains(key) }

    /// Whether all of the keys' values were fetched or set.
    public func areKeysAvailable(_ keys: ContactKeySet) -> Bool { keys.isSubset(of: availableKeys) }

    @inline(__always)
    package func checked(_ key: ContactKey) {
        if !availableKeys.contains(key) {
            preconditionFailure("Contact property not fetched: '\(key.rawValue)' was not in the keys to fetch")
        }
    }

    @inline(__always)
    package mutating func didSet(_ key: ContactKey) {
        availableKeys.insert(key)
        modifiedKeys.insert(key)
    }
}

extension Contact {
    /// The same values under another identifier (for example one derived from an imported card), with the same
    /// available and modified keys.
    public func withIdentifier(_ identifier: String) -> Contact {
        var copy = Contact(fetched: identifier, keys: availableKeys)
        copy.modifiedKeys = modifiedKeys
        copy.values = values
        copy.containerIdentifier = containerIdentifier
        return copy
    }
}
