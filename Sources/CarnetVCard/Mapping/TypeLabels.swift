import CarnetStore

/// Labels read from TYPE parameters (`TEL;TYPE=HOME,FAX` → `_$!<HomeFAX>!$_`), for values that carry no
/// X-ABLabel. PREF and the generic types (VOICE, INTERNET, X400, POSTAL...) are not labels.
enum TypeLabels {
    static func label(forTypes types: [String], kind: LabelKind) -> String? {
        guard !types.isEmpty else { return nil }
        switch kind {
        case .phone: return phoneLabel(types)
        case .email: return types.contains("icloud") ? ContactLabel.emailiCloud : generic(types)
        case .url:
            return types.contains("homepage") || types.contains("home-page") ? ContactLabel.urlHomePage : generic(types)
        case .date: return types.contains("anniversary") ? ContactLabel.dateAnniversary : generic(types)
        case .relation: return relationLabel(types)
        case .address, .instantMessage: return generic(types)
        case .socialProfile: return nil  // its TYPE is the service
        }
    }

    /// A custom label written as an `X-` type, as Android writes one (`TEL;X-Mobil 2:` in 2.1,
    /// `TEL;TYPE=X-Mobil 2:` in 3.0): the text after `X-`, in its own case.
    static func customLabel(_ parameters: [ContentLine.Parameter]) -> String? {
        for parameter in parameters where parameter.name == "TYPE" {
            // By scalar, as the reader splits: `,` or `-` before a combining mark is one Character with it.
            for part in parameter.value.unicodeScalars.split(separator: ",") {
                let type = TextCleaning.singleLine(String(part))
                guard type.utf8.count > 2, type.utf8.prefix(2).map(Byte.uppercased).elementsEqual("X-".utf8) else {
                    continue
                }
                let label = TextCleaning.singleLine(String(type.unicodeScalars.dropFirst(2)))
                if !label.isEmpty { return label }
            }
        }
        return nil
    }

    private static func phoneLabel(_ types: [String]) -> String? {
        if types.contains("iphone") { return ContactLabel.phoneiPhone }
        if types.contains("applewatch") { return ContactLabel.phoneAppleWatch }
        if types.contains("main") { return ContactLabel.phoneMain }
        if types.contains("pager") { return ContactLabel.phonePager }
        if types.contains("fax") {
            if types.contains("home") { return ContactLabel.phoneHomeFax }
            if types.contains("work") { return ContactLabel.phoneWorkFax }
            return ContactLabel.phoneOtherFax
        }
        if types.contains("cell") || types.contains("mobile") { return ContactLabel.phoneMobile }
        return generic(types)
    }

    private static func generic(_ types: [String]) -> String? {
        if types.contains("home") { return ContactLabel.home }
        if types.contains("work") { return ContactLabel.work }
        if types.contains("school") { return ContactLabel.school }
        if types.contains("other") { return ContactLabel.other }
        return nil
    }

    /// RELATED's TYPE: Apple's relation labels by their short name, RFC 6350's `co-worker` as colleague, and any
    /// other type (`sibling`, `emergency`...) as a custom label.
    private static func relationLabel(_ types: [String]) -> String? {
        for type in types where type != "pref" && type != "contact" {
            if let label = relations[type] { return label }
        }
        return types.first { $0 != "pref" && $0 != "contact" }
    }

    private static let relations: [String: String] = {
        let names = [
            "father", "mother", "parent", "brother", "sister", "child", "son", "daughter", "friend", "spouse",
            "partner", "assistant", "manager", "teacher", "colleague",
        ]
        var table = Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                ContactLabel.wellKnown[name].map { (name, $0) }
            })
        table["co-worker"] = ContactLabel.colleague
        return table
    }()

    /// The TYPE values that stand for a label, or `nil` when the label must be written as an X-ABLabel.
    static func types(for label: String, kind: LabelKind) -> [String]? {
        switch kind {
        case .phone:
            switch label {
            case ContactLabel.phoneMobile: return ["CELL"]
            case ContactLabel.phoneiPhone: return ["IPHONE", "CELL"]
            case ContactLabel.phoneMain: return ["MAIN"]
            case ContactLabel.phoneHomeFax: return ["HOME", "FAX"]
            case ContactLabel.phoneWorkFax: return ["WORK", "FAX"]
            case ContactLabel.phoneOtherFax: return ["OTHER", "FAX"]
            case ContactLabel.phonePager: return ["PAGER"]
            default: return genericTypes(label)
            }
        case .email, .address, .url, .instantMessage: return genericTypes(label)
        case .relation:
            // Only vCard 4.0's RELATED uses these; RFC 6350 has no father, sister...
            let rfcTypes = [ContactLabel.friend, ContactLabel.spouse, ContactLabel.child, ContactLabel.parent]
            if rfcTypes.contains(label) || label == ContactLabel.colleague {
                return [ContactLabel.shortName(of: label)!.uppercased()]
            }
            return nil
        case .date, .socialProfile: return nil
        }
    }

    private static func genericTypes(_ label: String) -> [String]? {
        switch label {
        case ContactLabel.home: ["HOME"]
        case ContactLabel.work: ["WORK"]
        case ContactLabel.other: ["OTHER"]
        default: nil
        }
    }
}
