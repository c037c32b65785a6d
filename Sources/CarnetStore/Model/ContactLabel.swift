/// Well-known labels for labeled values. Any other string is a custom label.
///
/// The strings are the Contacts framework's raw stored values (AddressBook's `_$!<Home>!$_` form), so data moved
/// between Carnet and Apple's frameworks or vCard `X-ABLabel` keeps its meaning.
public enum ContactLabel {
    public static let home = "_$!<Home>!$_"
    public static let work = "_$!<Work>!$_"
    public static let school = "_$!<School>!$_"
    public static let other = "_$!<Other>!$_"

    public static let emailiCloud = "iCloud"
    public static let urlHomePage = "_$!<HomePage>!$_"
    public static let dateAnniversary = "_$!<Anniversary>!$_"

    public static let phoneiPhone = "iPhone"
    public static let phoneAppleWatch = "_$!<AppleWatch>!$_"
    public static let phoneMobile = "_$!<Mobile>!$_"
    public static let phoneMain = "_$!<Main>!$_"
    public static let phoneHomeFax = "_$!<HomeFAX>!$_"
    public static let phoneWorkFax = "_$!<WorkFAX>!$_"
    public static let phoneOtherFax = "_$!<OtherFAX>!$_"
    public static let phonePager = "_$!<Pager>!$_"

    public static let father = "_$!<Father>!$_"
    public static let mother = "_$!<Mother>!$_"
    public static let parent = "_$!<Parent>!$_"
    public static let brother = "_$!<Brother>!$_"
    public static let sister = "_$!<Sister>!$_"
    public static let child = "_$!<Child>!$_"
    public static let son = "_$!<Son>!$_"
    public static let daughter = "_$!<Daughter>!$_"
    public static let friend = "_$!<Friend>!$_"
    public static let spouse = "_$!<Spouse>!$_"
    public static let partner = "_$!<Partner>!$_"
    public static let assistant = "_$!<Assistant>!$_"
    public static let manager = "_$!<Manager>!$_"
    public static let teacher = "_$!<Teacher>!$_"
    public static let colleague = "_$!<Colleague>!$_"

    /// Short names for the well-known labels (`"home"`, `"mobile"`, ...), as APIs and vCard TYPE values spell them.
    public static let wellKnown: [String: String] = [
        "home": home, "work": work, "school": school, "other": other,
        "iCloud": emailiCloud, "homePage": urlHomePage, "anniversary": dateAnniversary,
        "iPhone": phoneiPhone, "appleWatch": phoneAppleWatch, "mobile": phoneMobile, "main": phoneMain,
        "homeFax": phoneHomeFax, "workFax": phoneWorkFax, "otherFax": phoneOtherFax, "pager": phonePager,
        "father": father, "mother": mother, "parent": parent, "brother": brother, "sister": sister,
        "child": child, "son": son, "daughter": daughter, "friend": friend, "spouse": spouse,
        "partner": partner, "assistant": assistant, "manager": manager, "teacher": teacher,
        "colleague": colleague,
    ]

    private static let shortNames: [String: String] = Dictionary(
        uniqueKeysWithValues: wellKnown.map { ($1, $0) })

    /// The short name of a well-known stored label (`"_$!<Home>!$_"` → `"home"`), or `nil` for a custom label.
    public static func shortName(of label: String) -> String? { shortNames[label] }
}
