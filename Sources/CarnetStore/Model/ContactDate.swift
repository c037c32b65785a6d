/// Date components as the Contacts framework stores birthdays and dates: month and day, an optional year,
/// and the calendar they are expressed in.
///
/// A birthday without a year (`year == nil`) is common ("March 14th"). `nonGregorianBirthday` uses the same
/// type with another ``calendar`` (for example `"hebrew"` or `"chinese"`, Foundation's `Calendar.Identifier` names).
public struct ContactDate: Sendable, Hashable, Codable {
    /// A Foundation calendar identifier: `"gregorian"`, `"hebrew"`, `"chinese"`, `"islamic"`, ...
    public var calendar: String
    public var era: Int?
    public var year: Int?
    public var month: Int
    public var day: Int
    /// For lunisolar calendars (Chinese), whether ``month`` is the leap month.
    public var isLeapMonth: Bool

    public init(
        calendar: String = ContactDate.gregorian, era: Int? = nil, year: Int? = nil, month: Int, day: Int,
        isLeapMonth: Bool = false
    ) {
        self.calendar = calendar
        self.era = era
        self.year = year
        self.month = month
        self.day = day
        self.isLeapMonth = isLeapMonth
    }

    public static let gregorian = "gregorian"

    /// The calendars Carnet accepts (Foundation's `Calendar.Identifier` raw values).
    public static let calendars: Set<String> = [
        "gregorian", "buddhist", "chinese", "coptic", "ethiopicAmeteMihret", "ethiopicAmeteAlem", "hebrew",
        "iso8601", "indian", "islamic", "islamicCivil", "japanese", "persian", "republicOfChina", "islamicTabular",
        "islamicUmmAlQura", "bangla", "dangi", "gujarati", "kannada", "malayalam", "marathi", "odia", "tamil",
        "telugu", "vietnamese", "vikram",
    ]

    /// The names of the components that are wrong, empty when the date is valid.
    ///
    /// Gregorian-based calendars get an exact check (February 29th needs a leap year, or no year). Others are
    /// checked against the longest month and year they have, because their month lengths vary by year.
    public func invalidComponents() -> [String] {
        var bad: [String] = []
        guard Self.calendars.contains(calendar) else { return ["calendar"] }
        if let year, !(1...9999).contains(year) { bad.append("year") }
        let gregorianLike = ["gregorian", "iso8601", "buddhist", "japanese", "republicOfChina"].contains(calendar)
        let maxMonth = ["hebrew", "coptic", "ethiopicAmeteMihret", "ethiopicAmeteAlem"].contains(calendar) ? 13 : 12
        guard (1...maxMonth).contains(month) else { return bad + ["month"] }
        let maxDay: Int
        if gregorianLike {
            maxDay = Self.gregorianDays(month: month, year: calendar == "gregorian" ? year : nil)
        } else {
            maxDay = Self.thirtyDayMonthCalendars.contains(calendar) ? 30 : 32
        }
        if !(1...maxDay).contains(day) { bad.append("day") }
        if isLeapMonth && !["chinese", "dangi", "vietnamese", "hebrew"].contains(calendar) {
            bad.append("isLeapMonth")
        }
        if let era, !Self.eras(calendar).contains(era) { bad.append("era") }
        return bad
    }

    /// The eras a calendar's dates may name (Foundation's numbering). A Gregorian date is in era 1 (AD): vCard has
    /// no form for a date before it, which an export would write as the same year AD, and the leap-year check above
    /// counts AD years. Other calendars number their eras from 0 (Japanese reigns, Chinese sixty-year cycles).
    package static func eras(_ calendar: String) -> ClosedRange<Int> {
        ["gregorian", "iso8601"].contains(calendar) ? 1...1 : 0...9999
    }

    /// Lunar and lunisolar calendars, whose months have at most 30 days; the Indian solar calendars go to 32.
    package static let thirtyDayMonthCalendars: Set<String> = [
        "chinese", "dangi", "vietnamese", "hebrew", "islamic", "islamicCivil", "islamicTabular", "islamicUmmAlQura",
        "coptic", "ethiopicAmeteMihret", "ethiopicAmeteAlem",
    ]

    package static func gregorianDays(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension ContactDate {
    /// The compact storage form: `calendar|era|year|month|day|leap`.
    package var storageString: String {
        "\(calendar)|\(era.map(String.init) ?? "")|\(year.map(String.init) ?? "")|\(month)|\(day)|\(isLeapMonth ? 1 : 0)"
    }

    package init?(storageString: String) {
        // By bytes: splitting by Characters ran grapheme breaking over every date a full sync reads.
        let parts = storageString.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
            .map(Substring.init)
        guard parts.count == 6, let month = Int(parts[3]), let day = Int(parts[4]) else { return nil }
        self.init(
            calendar: String(parts[0]), era: Int(parts[1]), year: Int(parts[2]), month: month, day: day,
            isLeapMonth: parts[5] == "1")
    }
}
