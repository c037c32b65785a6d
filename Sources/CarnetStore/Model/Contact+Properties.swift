import Foundation

// Accessors for every key. Each getter traps when its key is not available (not fetched, not set);
// each setter makes the key available and modified.
extension Contact {
    public var contactType: ContactType {
        get {
            checked(.contactType)
            return values.contactType
        }
        set {
            values.contactType = newValue
            didSet(.contactType)
        }
    }

    public var namePrefix: String {
        get {
            checked(.namePrefix)
            return values.strings[0]
        }
        set {
            values.strings[0] = newValue
            didSet(.namePrefix)
        }
    }

    public var givenName: String {
        get {
            checked(.givenName)
            return values.strings[1]
        }
        set {
            values.strings[1] = newValue
            didSet(.givenName)
        }
    }

    public var middleName: String {
        get {
            checked(.middleName)
            return values.strings[2]
        }
        set {
            values.strings[2] = newValue
            didSet(.middleName)
        }
    }

    public var familyName: String {
        get {
            checked(.familyName)
            return values.strings[3]
        }
        set {
            values.strings[3] = newValue
            didSet(.familyName)
        }
    }

    public var previousFamilyName: String {
        get {
            checked(.previousFamilyName)
            return values.strings[4]
        }
        set {
            values.strings[4] = newValue
            didSet(.previousFamilyName)
        }
    }

    public var nameSuffix: String {
        get {
            checked(.nameSuffix)
            return values.strings[5]
        }
        set {
            values.strings[5] = newValue
            didSet(.nameSuffix)
        }
    }

    public var nickname: String {
        get {
            checked(.nickname)
            return values.strings[6]
        }
        set {
            values.strings[6] = newValue
            didSet(.nickname)
        }
    }

    public var phoneticGivenName: String {
        get {
            checked(.phoneticGivenName)
            return values.strings[7]
        }
        set {
            values.strings[7] = newValue
            didSet(.phoneticGivenName)
        }
    }

    public var phoneticMiddleName: String {
        get {
            checked(.phoneticMiddleName)
            return values.strings[8]
        }
        set {
            values.strings[8] = newValue
            didSet(.phoneticMiddleName)
        }
    }

    public var phoneticFamilyName: String {
        get {
            checked(.phoneticFamilyName)
            return values.strings[9]
        }
        set {
            values.strings[9] = newValue
            didSet(.phoneticFamilyName)
        }
    }

    public var phoneticOrganizationName: String {
        get {
            checked(.phoneticOrganizationName)
            return values.strings[10]
        }
        set {
            values.strings[10] = newValue
            didSet(.phoneticOrganizationName)
        }
    }

    public var organizationName: String {
        get {
            checked(.organizationName)
            return values.strings[11]
        }
        set {
            values.strings[11] = newValue
            didSet(.organizationName)
        }
    }

    public var departmentName: String {
        get {
            checked(.departmentName)
            return values.strings[12]
        }
        set {
            values.strings[12] = newValue
            didSet(.departmentName)
        }
    }

    public var jobTitle: String {
        get {
            checked(.jobTitle)
            return values.strings[13]
        }
        set {
            values.strings[13] = newValue
            didSet(.jobTitle)
        }
    }

    public var note: String {
        get {
            checked(.note)
            return values.strings[14]
        }
        set {
            values.strings[14] = newValue
            didSet(.note)
        }
    }

    public var birthday: ContactDate? {
        get {
            checked(.birthday)
            return values.birthday
        }
        set {
            values.birthday = newValue
            didSet(.birthday)
        }
    }

    public var nonGregorianBirthday: ContactDate? {
        get {
            checked(.nonGregorianBirthday)
            return values.nonGregorianBirthday
        }
        set {
            values.nonGregorianBirthday = newValue
            didSet(.nonGregorianBirthday)
        }
    }

    public var phoneNumbers: [LabeledValue<String>] {
        get {
            checked(.phoneNumbers)
            return values.phoneNumbers
        }
        set {
            values.phoneNumbers = newValue
            didSet(.phoneNumbers)
        }
    }

    public var emailAddresses: [LabeledValue<String>] {
        get {
            checked(.emailAddresses)
            return values.emailAddresses
        }
        set {
            values.emailAddresses = newValue
            didSet(.emailAddresses)
        }
    }

    public var postalAddresses: [LabeledValue<PostalAddress>] {
        get {
            checked(.postalAddresses)
            return values.postalAddresses
        }
        set {
            values.postalAddresses = newValue
            didSet(.postalAddresses)
        }
    }

    public var urlAddresses: [LabeledValue<String>] {
        get {
            checked(.urlAddresses)
            return values.urlAddresses
        }
        set {
            values.urlAddresses = newValue
            didSet(.urlAddresses)
        }
    }

    public var dates: [LabeledValue<ContactDate>] {
        get {
            checked(.dates)
            return values.dates
        }
        set {
            values.dates = newValue
            didSet(.dates)
        }
    }

    public var contactRelations: [LabeledValue<ContactRelation>] {
        get {
            checked(.contactRelations)
            return values.contactRelations
        }
        set {
            values.contactRelations = newValue
            didSet(.contactRelations)
        }
    }

    public var socialProfiles: [LabeledValue<SocialProfile>] {
        get {
            checked(.socialProfiles)
            return values.socialProfiles
        }
        set {
            values.socialProfiles = newValue
            didSet(.socialProfiles)
        }
    }

    public var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        get {
            checked(.instantMessageAddresses)
            return values.instantMessageAddresses
        }
        set {
            values.instantMessageAddresses = newValue
            didSet(.instantMessageAddresses)
        }
    }

    /// vCard properties with no Carnet key (raw, unfolded lines), written back when the contact is exported.
    public var vCardProperties: [LabeledValue<String>] {
        get {
            checked(.vCardProperties)
            return values.vCardProperties
        }
        set {
            values.vCardProperties = newValue
            didSet(.vCardProperties)
        }
    }

    /// The full-size image; at most ``StoreLimits/imageDataBytes``.
    public var imageData: Data? {
        get {
            checked(.imageData)
            return values.imageData
        }
        set {
            values.imageData = newValue
            didSet(.imageData)
        }
    }

    /// The thumbnail image; at most ``StoreLimits/thumbnailImageDataBytes``.
    public var thumbnailImageData: Data? {
        get {
            checked(.thumbnailImageData)
            return values.thumbnailImageData
        }
        set {
            values.thumbnailImageData = newValue
            didSet(.thumbnailImageData)
        }
    }

    /// Whether the contact has an image; read-only, fetched without reading the image itself.
    public var imageDataAvailable: Bool {
        checked(.imageDataAvailable)
        return values.imageDataAvailable
    }
}

extension Contact {
    /// The value of a single-value string key (`ContactKey.stringKeys`), by key.
    public func string(_ key: ContactKey) -> String {
        guard let slot = key.stringSlot else { preconditionFailure("\(key.rawValue) is not a string key") }
        checked(key)
        return values.strings[slot]
    }

    /// Sets a single-value string key by key, marking it modified.
    public mutating func setString(_ key: ContactKey, _ value: String) {
        guard let slot = key.stringSlot else { preconditionFailure("\(key.rawValue) is not a string key") }
        values.strings[slot] = value
        didSet(key)
    }
}
