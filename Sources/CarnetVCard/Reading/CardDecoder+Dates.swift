import CarnetStore

/// BDAY, X-ALTBDAY, X-ABDATE and ANNIVERSARY. A value that is not a real date is kept unmapped.
extension CardDecoder {
    mutating func mapBirthday(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard let date = try date(line) else {
            unreadableDates.append(current)
            return false
        }
        if date.calendar == ContactDate.gregorian {
            guard birthday == nil else { return false }
            birthday = date
        } else {
            guard nonGregorianBirthday == nil else { return false }
            nonGregorianBirthday = date
        }
        try noteTime(line)
        return true
    }

    /// Notes a date mapped without the time of day its value gave, which no key holds (an outside tester's find:
    /// it went with no word).
    private mutating func noteTime(_ line: ContentLine) throws(VCardIssue) {
        if DateValues.hasTime(try values.text(line)) { timedDates.append(current) }
    }

    /// Apple's birthday in another calendar: `X-ALTBDAY;CALSCALE=chinese:007800021101`.
    mutating func mapAlternateBirthday(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard nonGregorianBirthday == nil, let date = try date(line), date.calendar != ContactDate.gregorian else {
            return false
        }
        nonGregorianBirthday = date
        try noteTime(line)
        return true
    }

    /// ANNIVERSARY (4.0) and X-ANNIVERSARY are anniversaries unless an X-ABLabel says otherwise; X-ABDATE takes
    /// its label from the group's X-ABLabel, as Apple writes it.
    mutating func mapDate(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard let date = try date(line) else {
            unreadableDates.append(current)
            return false
        }
        var label = label(for: line, kind: .date)
        if line.name != "X-ABDATE", line.group.flatMap({ groupLabels[$0] }) == nil {
            label = ContactLabel.dateAnniversary
        }
        dates.append(LabeledValue(label: label, value: date))
        source(.dates)
        try noteTime(line)
        return true
    }

    /// The line's date, in the calendar its CALSCALE names (Gregorian by default); `nil` when it is not one.
    private func date(_ line: ContentLine) throws(VCardIssue) -> ContactDate? {
        var calendar = ContactDate.gregorian
        if let name = line.parameter("CALSCALE") {
            guard let known = DateValues.calendar(named: name) else { return nil }
            calendar = known
        }
        guard
            var date = DateValues.parse(
                try values.text(line), calendar: calendar, omitYear: line.parameter("X-APPLE-OMIT-YEAR"))
        else { return nil }
        if let leap = line.parameter("X-LEAP-MONTH"), leap == "1" || leap.lowercased() == "true" {
            date.isLeapMonth = true
            guard date.invalidComponents().isEmpty else { return nil }
        }
        return date
    }
}
