/// Why a card (or a stretch of the file outside any card) was not imported.
///
/// In lenient reading the card is skipped whole and the rest of the file still imports; in strict reading the
/// first issue fails the read.
public struct VCardIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line at fault: the offending property's first line, or the card's BEGIN:VCARD line when the
    /// fault is the card as a whole (a missing END:VCARD).
    public var line: Int
    /// The 1-based line of the BEGIN:VCARD of the card that was skipped; equal to ``line`` for text found
    /// outside any card.
    public var cardLine: Int
    /// What is wrong, without the property's value (it may be personal data).
    public var message: String

    /// - Parameter cardLine: Defaults to `line`.
    public init(line: Int, cardLine: Int? = nil, message: String) {
        self.line = line
        self.cardLine = cardLine ?? line
        self.message = message
    }

    /// `line 12: invalid quoted-printable in NOTE (card at line 9 skipped)`.
    public var description: String {
        cardLine == line ? "line \(line): \(message)" : "line \(line): \(message) (card at line \(cardLine) skipped)"
    }
}
