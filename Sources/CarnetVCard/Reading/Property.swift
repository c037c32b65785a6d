/// The properties the decoder knows, looked up once per line so that mapping switches over cases rather than
/// comparing name strings.
enum Property: Int {
    case version, prodID, uid, formattedName, name, nickname, maidenName
    case phoneticFirstName, phoneticMiddleName, phoneticLastName, phoneticOrganization
    case organization, title, note, showAs, kind, categories
    case birthday, alternateBirthday, appleDate, anniversary
    case telephone, email, address, url, relatedNames, related, socialProfile, impp, photo
    case appleLabel, appleAddressCountry, appleSubLocality, appleSubAdministrativeArea
    /// 4.0's MEMBER and Apple's X-ADDRESSBOOKSERVER-MEMBER; X-ADDRESSBOOKSERVER-KIND is ``kind``.
    case member
    /// X-AIM, X-JABBER and the other pre-IMPP properties (``Services/instantMessageProperties``).
    case legacyInstantMessage

    /// Known properties by uppercase name.
    static let byName: [String: Property] = {
        var table: [String: Property] = [
            "VERSION": .version, "PRODID": .prodID, "UID": .uid, "FN": .formattedName, "N": .name,
            "NICKNAME": .nickname, "X-MAIDENNAME": .maidenName, "X-PHONETIC-FIRST-NAME": .phoneticFirstName,
            "X-PHONETIC-MIDDLE-NAME": .phoneticMiddleName, "X-PHONETIC-LAST-NAME": .phoneticLastName,
            "X-PHONETIC-ORG": .phoneticOrganization, "ORG": .organization, "TITLE": .title, "NOTE": .note,
            "X-ABSHOWAS": .showAs, "KIND": .kind, "X-ADDRESSBOOKSERVER-KIND": .kind, "CATEGORIES": .categories,
            "BDAY": .birthday,
            "X-ALTBDAY": .alternateBirthday, "X-ABDATE": .appleDate, "ANNIVERSARY": .anniversary,
            "X-ANNIVERSARY": .anniversary, "TEL": .telephone, "EMAIL": .email, "ADR": .address, "URL": .url,
            "X-ABRELATEDNAMES": .relatedNames, "RELATED": .related, "X-SOCIALPROFILE": .socialProfile,
            "IMPP": .impp, "PHOTO": .photo, "X-ABLABEL": .appleLabel, "X-ABADR": .appleAddressCountry,
            "X-APPLE-SUBLOCALITY": .appleSubLocality, "X-APPLE-SUBADMINISTRATIVEAREA": .appleSubAdministrativeArea,
            "MEMBER": .member, "X-ADDRESSBOOKSERVER-MEMBER": .member,
        ]
        for name in Services.instantMessageProperties.keys { table[name] = .legacyInstantMessage }
        return table
    }()

    /// Whether the property is one of Apple's group helpers, decided once the group's main property is mapped.
    var isGroupHelper: Bool {
        switch self {
        case .appleLabel, .appleAddressCountry, .appleSubLocality, .appleSubAdministrativeArea: true
        default: false
        }
    }
}
