/// The vCard versions Carnet reads; they differ in escaping, folding habits and a few property forms.
enum VCardVersion: String {
    case v21 = "2.1"
    case v30 = "3.0"
    case v40 = "4.0"

    /// The version named by a card's VERSION lines; a card without one is read as 3.0, the most common.
    static func of(_ lines: [ContentLine], cardLine: Int) throws(VCardIssue) -> VCardVersion {
        guard let line = lines.first(where: { $0.name == "VERSION" }) else { return .v30 }
        let text = line.value.trimmingWhitespace.string
        switch text {
        case "2.1", "2.0", "2": return .v21
        case "3.0", "3": return .v30
        case "4.0", "4": return .v40
        default:
            throw VCardIssue(
                line: line.number, cardLine: cardLine, message: "unsupported vCard version \"\(text.prefix(16))\"")
        }
    }
}
