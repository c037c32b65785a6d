/// A structured postal address (`CNPostalAddress`).
public struct PostalAddress: Sendable, Hashable, Codable {
    public var street: String
    public var subLocality: String
    public var city: String
    public var subAdministrativeArea: String
    public var state: String
    public var postalCode: String
    public var country: String
    public var isoCountryCode: String

    public init(
        street: String = "", subLocality: String = "", city: String = "", subAdministrativeArea: String = "",
        state: String = "", postalCode: String = "", country: String = "", isoCountryCode: String = ""
    ) {
        self.street = street
        self.subLocality = subLocality
        self.city = city
        self.subAdministrativeArea = subAdministrativeArea
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.isoCountryCode = isoCountryCode
    }

    package var fields: [String] {
        [street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode]
    }

    package static let fieldNames = [
        "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode", "country", "isoCountryCode",
    ]

    package init(fields f: [String]) {
        self.init(
            street: f[0], subLocality: f[1], city: f[2], subAdministrativeArea: f[3], state: f[4],
            postalCode: f[5], country: f[6], isoCountryCode: f[7])
    }
}

/// A social network profile (`CNSocialProfile`).
public struct SocialProfile: Sendable, Hashable, Codable {
    public var urlString: String
    public var username: String
    public var userIdentifier: String
    public var service: String

    public init(urlString: String = "", username: String = "", userIdentifier: String = "", service: String = "") {
        self.urlString = urlString
        self.username = username
        self.userIdentifier = userIdentifier
        self.service = service
    }

    package var fields: [String] { [urlString, username, userIdentifier, service] }
    package static let fieldNames = ["urlString", "username", "userIdentifier", "service"]
    package init(fields f: [String]) { self.init(urlString: f[0], username: f[1], userIdentifier: f[2], service: f[3]) }
}

/// An instant messaging address (`CNInstantMessageAddress`).
public struct InstantMessageAddress: Sendable, Hashable, Codable {
    public var username: String
    public var service: String

    public init(username: String = "", service: String = "") {
        self.username = username
        self.service = service
    }

    package var fields: [String] { [username, service] }
    package static let fieldNames = ["username", "service"]
    package init(fields f: [String]) { self.init(username: f[0], service: f[1]) }
}

/// A related person (`CNContactRelation`).
public struct ContactRelation: Sendable, Hashable, Codable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// Whether a contact is a person or an organization (`CNContactType`).
public enum ContactType: Int, Sendable, Hashable, Codable, CaseIterable {
    case person = 0
    case organization = 1
}
