/// Phone numbers as people type them, in several countries' formats, and the same numbers written differently
/// (the phone search must find them whatever the formatting).
enum PhoneFormats {
    enum Country: String, Codable, CaseIterable, Sendable {
        case us, uk, fr, de
    }

    static func random(_ rng: inout SplitMix64) -> String {
        let digit = { (rng: inout SplitMix64) in String(rng.int(0...9)) }
        func digits(_ n: Int, _ rng: inout SplitMix64) -> String { (0..<n).map { _ in digit(&rng) }.joined() }
        let u = rng.unit()
        if u < 0.5 {  // United States: 10 national digits
            let area = String(rng.int(201...989))
            let exchange = String(rng.int(200...999))
            let line = digits(4, &rng)
            switch rng.int(0..<4) {
            case 0: return "+1 (\(area)) \(exchange)-\(line)"
            case 1: return "(\(area)) \(exchange)-\(line)"
            case 2: return "\(area)-\(exchange)-\(line)"
            default: return "+1 \(area) \(exchange) \(line)"
            }
        } else if u < 0.7 {  // United Kingdom: trunk 0 + 10 digits
            if rng.chance(0.5) {
                let rest = "7" + digits(3, &rng)
                let tail = digits(6, &rng)
                return rng.chance(0.5) ? "+44 \(rest) \(tail)" : "0\(rest) \(tail)"
            }
            let a = digits(4, &rng)
            let b = digits(4, &rng)
            return rng.chance(0.5) ? "+44 20 \(a) \(b)" : "020 \(a) \(b)"
        } else if u < 0.85 {  // France: trunk 0 + 9 digits
            let pairs = (0..<4).map { _ in digits(2, &rng) }.joined(separator: " ")
            let lead = String(rng.pick([1, 2, 3, 4, 5, 6, 7, 9]))
            return rng.chance(0.5) ? "+33 \(lead) \(pairs)" : "0\(lead) \(pairs)"
        } else {  // Germany: area code and subscriber number of varying lengths
            let area = rng.pick(["30", "40", "89", "221", "69", "711", "1512", "1701"])
            let subscriber = digits(rng.int(6...8), &rng)
            return rng.chance(0.5) ? "+49 \(area) \(subscriber)" : "0\(area) \(subscriber)"
        }
    }

    static func country(of phone: String) -> Country? {
        let chars = Array(phone)
        for (prefix, country) in [("+1 ", Country.us), ("+44 ", .uk), ("+33 ", .fr), ("+49 ", .de)]
        where phone.hasPrefix(prefix) { return country }
        if chars.first == "(" || (chars.count > 3 && chars[3] == "-") { return .us }
        if chars.count > 2 && chars[0] == "0" && chars[2] == " " { return .fr }
        if phone.hasPrefix("020 ") || (phone.hasPrefix("07") && chars.count > 5 && chars[5] == " ") { return .uk }
        return phone.hasPrefix("0") ? .de : nil
    }

    /// The same number in the same convention (international or national) with other separators: the phone
    /// search must match it.
    static func reformatted(_ phone: String, variant: Int) -> String {
        let digits = phone.filter(\.isNumber)
        let international = phone.hasPrefix("+")
        switch variant % 3 {
        case 0: return international ? "+" + digits : digits
        case 1: return (international ? "+" : "") + chunked(digits, by: 3, separator: ".")
        default: return (international ? "+" : "") + chunked(digits, by: 2, separator: " ")
        }
    }

    /// The same number written the other way: international ↔ national (trunk prefix 0, none for the US).
    static func otherConvention(_ phone: String) -> String? {
        guard let country = country(of: phone) else { return nil }
        let digits = phone.filter(\.isNumber)
        let code = ["us": "1", "uk": "44", "fr": "33", "de": "49"][country.rawValue]!
        if phone.hasPrefix("+") {
            let national = String(digits.dropFirst(code.count))
            return country == .us ? national : "0" + national
        }
        let national = country == .us ? digits : String(digits.dropFirst())
        return "+" + code + " " + national
    }

    private static func chunked(_ text: String, by size: Int, separator: String) -> String {
        var parts: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if current.count == size {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts.joined(separator: separator)
    }
}
