import CarnetStore

/// vCard date values ↔ ``ContactDate``.
///
/// Read: `1985-03-14`, `19850314`, either with a time after `T`; `--0314` and `--03-14` (no year); Apple's
/// `X-APPLE-OMIT-YEAR=1604` with `1604-03-14`; Apple's alternate-calendar forms `EEEEYYYYMMDD` (era first,
/// Chinese) and `-YYYYMMDD`. Anything else, or a date that does not exist, is not a date (the property is kept
/// unmapped instead).
enum DateValues {
    /// Whether a date value gives a time of day after its date (`T...`), which ``parse(_:calendar:omitYear:)``
    /// leaves out.
    static func hasTime(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }
    }

    static func parse(_ text: String, calendar: String = ContactDate.gregorian, omitYear: String? = nil)
        -> ContactDate?
    {
        var bytes = Array(TextCleaning.trimmed(text).utf8)[...]
        if let time = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) {
            bytes = bytes[..<time]
        }
        let dash = UInt8(ascii: "-")
        let yearless = bytes.starts(with: [dash, dash])
        if yearless {
            bytes = bytes.dropFirst(2)
        } else if bytes.first == dash {
            bytes = bytes.dropFirst()
        }
        var parts = bytes.split(separator: dash, omittingEmptySubsequences: false)
        if parts.count == 1 {
            // The basic forms: MMDD without a year, YYYYMMDD, and Apple's EEEEYYYYMMDD with an era.
            let widths: [Int]
            switch (yearless, bytes.count) {
            case (true, 4): widths = [2, 2]
            case (false, 8): widths = [4, 2, 2]
            case (false, 12): widths = [4, 4, 2, 2]
            default: return nil
            }
            parts = []
            var start = bytes.startIndex
            for width in widths {
                parts.append(bytes[start..<(start + width)])
                start += width
            }
        }
        guard parts.count == (yearless ? 2 : 3) || (!yearless && parts.count == 4),
            parts.suffix(2).allSatisfy({ $0.count <= 2 })
        else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard let value = number(part) else { return nil }
            numbers.append(value)
        }
        var year = yearless ? nil : numbers[numbers.count - 3]
        if let omitYear, let omitted = Int(omitYear), omitted == year { year = nil }
        let date = ContactDate(
            calendar: calendar, era: numbers.count == 4 ? numbers[0] : nil, year: year,
            month: numbers[numbers.count - 2], day: numbers[numbers.count - 1])
        return date.invalidComponents().isEmpty ? date : nil
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// A Gregorian date as BDAY, ANNIVERSARY and X-ABDATE carry it: with a year, `1985-03-14` (3.0) or `19850314`
    /// (4.0); without, Apple's `1604-03-14` with `X-APPLE-OMIT-YEAR=1604` (3.0) or `--0314` (4.0).
    static func format(_ date: ContactDate, version: VCardVersion) -> (value: String, omitYear: Bool) {
        let month = pad(date.month, 2)
        let day = pad(date.day, 2)
        switch (date.year, version) {
        case (let year?, .v40): return ("\(pad(year, 4))\(month)\(day)", false)
        case (let year?, _): return ("\(pad(year, 4))-\(month)-\(day)", false)
        case (nil, .v40): return ("--\(month)\(day)", false)
        case (nil, _): return ("\(appleOmittedYear)-\(month)-\(day)", true)
        }
    }

    /// A date in another calendar, as Apple's X-ALTBDAY: `EEEEYYYYMMDD` when it has an era (Chinese cycles),
    /// `YYYY-MM-DD` otherwise, `--MMDD` without a year.
    static func formatAlternate(_ date: ContactDate) -> String {
        let month = pad(date.month, 2)
        let day = pad(date.day, 2)
        guard let year = date.year else { return "--\(month)\(day)" }
        if let era = date.era { return "\(pad(era, 4))\(pad(year, 4))\(month)\(day)" }
        return "\(pad(year, 4))-\(month)-\(day)"
    }

    /// The year Apple writes for a date without one (a leap year, so February 29th survives).
    static let appleOmittedYear = "1604"

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A CALSCALE value as a Foundation calendar identifier: Foundation's own names in any case, and the
    /// CLDR/BCP 47 names (`gregory`, `islamic-civil`, `roc`...) other writers use.
    static func calendar(named name: String) -> String? {
        let lower = name.lowercased()
        if let known = calendarsByLowercase[lower] { return known }
        return cldrCalendars[lower]
    }

    private static let calendarsByLowercase = Dictionary(
        uniqueKeysWithValues: ContactDate.calendars.map { ($0.lowercased(), $0) })

    private static let cldrCalendars = [
        "gregory": "gregorian", "islamic-civil": "islamicCivil", "islamic-tbla": "islamicTabular",
        "islamic-umalqura": "islamicUmmAlQura", "ethiopic": "ethiopicAmeteMihret", "ethioaa": "ethiopicAmeteAlem",
        "roc": "republicOfChina", "iso-8601": "iso8601",
    ]
}
