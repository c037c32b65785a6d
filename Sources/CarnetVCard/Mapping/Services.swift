/// Instant messaging and social network service names, in the Contacts framework's spelling.
enum Services {
    /// `CNSocialProfileService*` values by lowercase name.
    private static let social: [String: String] = [
        "facebook": "Facebook", "flickr": "Flickr", "gamecenter": "GameCenter", "linkedin": "LinkedIn",
        "myspace": "MySpace", "sinaweibo": "SinaWeibo", "tencentweibo": "TencentWeibo", "twitter": "Twitter",
        "yelp": "Yelp",
    ]

    /// The pre-IMPP properties, one per service (`X-AIM:jdoe`).
    static let instantMessageProperties: [String: String] = [
        "X-AIM": "AIM", "X-JABBER": "Jabber", "X-ICQ": "ICQ", "X-MSN": "MSN", "X-YAHOO": "Yahoo", "X-SKYPE": "Skype",
        "X-SKYPE-USERNAME": "Skype", "X-QQ": "QQ", "X-GOOGLE-TALK": "GoogleTalk", "X-GTALK": "GoogleTalk",
        "X-GADUGADU": "GaduGadu", "X-GADU-GADU": "GaduGadu", "X-FACEBOOK": "Facebook",
    ]

    /// IMPP URI schemes by the service they imply when no X-SERVICE-TYPE says otherwise.
    private static let schemes: [String: String] = [
        "aim": "AIM", "xmpp": "Jabber", "msnim": "MSN", "msn": "MSN", "ymsgr": "Yahoo", "skype": "Skype",
        "icq": "ICQ", "gg": "GaduGadu", "gadu": "GaduGadu", "qq": "QQ", "gtalk": "GoogleTalk",
    ]

    static func socialService(_ name: String) -> String { social[name.lowercased()] ?? name }

    /// The service an IMPP scheme implies; Apple's `x-apple:` carries none.
    static func service(forScheme scheme: String) -> String {
        let lower = scheme.lowercased()
        if lower == "x-apple" { return "" }
        return schemes[lower] ?? scheme
    }

    /// The scheme to write an IMPP value with, as Apple does (`x-apple:` for services without their own).
    static func scheme(forService service: String) -> String {
        switch service.lowercased() {
        case "aim", "icq": "aim"
        case "jabber", "googletalk", "facebook": "xmpp"
        case "msn": "msnim"
        case "yahoo": "ymsgr"
        case "skype": "skype"
        default: "x-apple"
        }
    }

    /// Whether the social service is one the writer spells in lowercase, as Apple does (`type=twitter`).
    static func isKnownSocialService(_ service: String) -> Bool { social[service.lowercased()] == service }
}
