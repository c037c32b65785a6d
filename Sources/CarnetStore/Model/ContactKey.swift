/// A key of a contact: the unit of fetching ("keys to fetch"), of updating and of change reporting.
///
/// Raw values are the Contacts framework's key strings (`CNContactGivenNameKey` is `"givenName"`), so they can be
/// used on the wire as they are. The identifier is not a key: it is always available.
public enum ContactKey: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case contactType
    case namePrefix
    case givenName
    case middleName
    case familyName
    case previousFamilyName
    case nameSuffix
    case nickname
    case phoneticGivenName
    case phoneticMiddleName
    case phoneticFamilyName
    case phoneticOrganizationName
    case organizationName
    case departmentName
    case jobTitle
    case note
    case birthday
    case nonGregorianBirthday
    case imageData
    case thumbnailImageData
    case imageDataAvailable
    case phoneNumbers
    case emailAddresses
    case postalAddresses
    case urlAddresses
    case dates
    case contactRelations
    case socialProfiles
    case instantMessageAddresses

    /// The position of the key in ``allCases``; stable, used for bit sets and storage slots.
    public var ordinal: Int { Self.ordinals[self]! }

    private static let ordinals: [ContactKey: Int] = Dictionary(
        uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    public static func < (lhs: ContactKey, rhs: ContactKey) -> Bool { lhs.ordinal < rhs.ordinal }

    /// The single-value string keys, in storage order.
    public static let stringKeys: [ContactKey] = [
        .namePrefix, .givenName, .middleName, .familyName, .previousFamilyName, .nameSuffix, .nickname,
        .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName,
        .organizationName, .departmentName, .jobTitle, .note,
    ]

    /// The keys whose values are lists of labeled values.
    public static let multiValueKeys: [ContactKey] = [
        .phoneNumbers, .emailAddresses, .postalAddresses, .urlAddresses, .dates, .contactRelations,
        .socialProfiles, .instantMessageAddresses,
    ]

    /// The keys the name search looks at.
    public static let searchableNameKeys: [ContactKey] = [
        .givenName, .middleName, .familyName, .previousFamilyName, .nickname, .organizationName,
        .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName,
    ]

    /// Whether the key holds a list of labeled values.
    public var isMultiValue: Bool { MultiValueKind(key: self) != nil }

    /// Where the key's value lives in ``Contact``'s string storage, if it is a string key.
    var stringSlot: Int? { Self.stringSlots[self] }

    private static let stringSlots: [ContactKey: Int] = Dictionary(
        uniqueKeysWithValues: stringKeys.enumerated().map { ($1, $0) })
}

/// The multi-value keys, with the small integer code they are stored under.
public enum MultiValueKind: Int, CaseIterable, Sendable {
    case phoneNumbers = 1
    case emailAddresses = 2
    case postalAddresses = 3
    case urlAddresses = 4
    case dates = 5
    case contactRelations = 6
    case socialProfiles = 7
    case instantMessageAddresses = 8

    public init?(key: ContactKey) {
        switch key {
        case .phoneNumbers: self = .phoneNumbers
        case .emailAddresses: self = .emailAddresses
        case .postalAddresses: self = .postalAddresses
        case .urlAddresses: self = .urlAddresses
        case .dates: self = .dates
        case .contactRelations: self = .contactRelations
        case .socialProfiles: self = .socialProfiles
        case .instantMessageAddresses: self = .instantMessageAddresses
        default: return nil
        }
    }

    public var key: ContactKey {
        switch self {
        case .phoneNumbers: .phoneNumbers
        case .emailAddresses: .emailAddresses
        case .postalAddresses: .postalAddresses
        case .urlAddresses: .urlAddresses
        case .dates: .dates
        case .contactRelations: .contactRelations
        case .socialProfiles: .socialProfiles
        case .instantMessageAddresses: .instantMessageAddresses
        }
    }
}
