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
    /// vCard properties Carnet has no key for, kept so an exported card carries them again (raw, unfolded lines).
    /// Carnet's own key: the Contacts framework has no counterpart.
    case vCardProperties

    /// The position of the key in ``allCases``; stable, used for bit sets and storage slots. A switch, not a
    /// table: key sets test membership on every property read.
    @inline(__always)
    public var ordinal: Int {
        switch self {
        case .contactType: 0
        case .namePrefix: 1
        case .givenName: 2
        case .middleName: 3
        case .familyName: 4
        case .previousFamilyName: 5
        case .nameSuffix: 6
        case .nickname: 7
        case .phoneticGivenName: 8
        case .phoneticMiddleName: 9
        case .phoneticFamilyName: 10
        case .phoneticOrganizationName: 11
        case .organizationName: 12
        case .departmentName: 13
        case .jobTitle: 14
        case .note: 15
        case .birthday: 16
        case .nonGregorianBirthday: 17
        case .imageData: 18
        case .thumbnailImageData: 19
        case .imageDataAvailable: 20
        case .phoneNumbers: 21
        case .emailAddresses: 22
        case .postalAddresses: 23
        case .urlAddresses: 24
        case .dates: 25
        case .contactRelations: 26
        case .socialProfiles: 27
        case .instantMessageAddresses: 28
        case .vCardProperties: 29
        }
    }

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
        .socialProfiles, .instantMessageAddresses, .vCardProperties,
    ]

    /// The keys the name search looks at.
    public static let searchableNameKeys: [ContactKey] = [
        .givenName, .middleName, .familyName, .previousFamilyName, .nickname, .organizationName,
        .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName,
    ]

    /// Whether the key holds a list of labeled values.
    public var isMultiValue: Bool { MultiValueKind(key: self) != nil }

    /// Where the key's value lives in ``Contact``'s string storage, if it is a string key.
    @inline(__always)
    package var stringSlot: Int? {
        switch self {
        case .namePrefix: 0
        case .givenName: 1
        case .middleName: 2
        case .familyName: 3
        case .previousFamilyName: 4
        case .nameSuffix: 5
        case .nickname: 6
        case .phoneticGivenName: 7
        case .phoneticMiddleName: 8
        case .phoneticFamilyName: 9
        case .phoneticOrganizationName: 10
        case .organizationName: 11
        case .departmentName: 12
        case .jobTitle: 13
        case .note: 14
        default: nil
        }
    }
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
    case vCardProperties = 9

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
        case .vCardProperties: self = .vCardProperties
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
        case .vCardProperties: .vCardProperties
        }
    }
}
