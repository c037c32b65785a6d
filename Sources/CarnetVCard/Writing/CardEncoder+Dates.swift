import CarnetStore

/// BDAY, X-ALTBDAY, X-ABDATE and ANNIVERSARY.
extension CardEncoder {
    /// BDAY in the version's form (Apple's omitted year in 3.0, `--MMDD` in 4.0) and the non-Gregorian birthday
    /// as Apple's X-ALTBDAY.
    mutating func encodeBirthdays() {
        if let birthday = value(.birthday, \.birthday, nil) {
            writeDate("BDAY", birthday)
        }
        if let other = value(.nonGregorianBirthday, \.nonGregorianBirthday, nil) {
            writeDate("X-ALTBDAY", other)
        }
    }

    /// Apple's `itemN.X-ABDATE` with an X-ABLabel; in 4.0 the first Gregorian anniversary is ANNIVERSARY.
    mutating func encodeDates() {
        var anniversaryWritten = false
        for date in value(.dates, \.dates, []) {
            let isGregorian = date.value.calendar == ContactDate.gregorian
            if version == .v40, !anniversaryWritten, isGregorian, date.label == ContactLabel.dateAnniversary {
                anniversaryWritten = true
                writeDate("ANNIVERSARY", date.value)
                continue
            }
            let (value, parameters) = dateValue(date.value)
            labeled("X-ABDATE", label: date.label, kind: .date, value: value, parameters: parameters)
        }
    }

    private mutating func writeDate(_ name: String, _ date: ContactDate) {
        let (value, parameters) = dateValue(date)
        out.property(name, parameters: parameters, value: value)
    }

    /// A Gregorian date in the version's form; another calendar's with CALSCALE, in Apple's X-ALTBDAY form.
    private func dateValue(_ date: ContactDate) -> (String, [(String, String)]) {
        guard date.calendar == ContactDate.gregorian else {
            var parameters = [("CALSCALE", Escaping.parameter(date.calendar))]
            if date.isLeapMonth { parameters.append(("X-LEAP-MONTH", "1")) }
            return (DateValues.formatAlternate(date), parameters)
        }
        let (value, omitYear) = DateValues.format(date, version: version)
        return (value, omitYear ? [("X-APPLE-OMIT-YEAR", DateValues.appleOmittedYear)] : [])
    }
}
