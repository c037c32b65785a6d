import Foundation

/// Reads vCard 2.1, 3.0 and 4.0 files into contacts.
///
/// ```swift
/// let (cards, issues) = try VCardReader().read(data)
/// for issue in issues { print(issue) }  // "line 12: invalid quoted-printable in NOTE (card at line 9 skipped)"
/// for card in cards { request.add(card.contact) }
/// ```
///
/// A file may hold many cards, use CRLF, LF or CR line ends, start with a UTF-8 or UTF-16 byte order mark, fold
/// its lines and encode values as quoted-printable or base64. A card that cannot be read whole is skipped and
/// reported; it is never imported in part.
public struct VCardReader: Sendable {
    /// Whether the first issue fails the whole read instead of skipping the card.
    public var strict: Bool
    /// The largest decoded PHOTO a card may carry; a larger one makes the card an issue.
    public var maxPhotoBytes: Int
    /// The longest unfolded property line; a longer one makes the card an issue.
    public var maxLineBytes: Int
    /// The bytes are text already decoded (the UTF-8 of a GraphQL string), not a file's: a value without a
    /// transfer encoding is UTF-8 whatever its CHARSET says (`N;CHARSET=ISO-8859-1:Müller` was read as
    /// "MÃ¼ller"). A quoted-printable or base64 value is bytes again, in its CHARSET.
    public var textIsDecoded = false

    /// - Parameters:
    ///   - strict: Refuse the whole file at the first bad card instead of skipping it.
    ///   - maxPhotoBytes: Defaults to the store's image limit, 5 MiB.
    ///   - maxLineBytes: Defaults to 10 MiB, room for a 5 MiB photo in base64.
    public init(strict: Bool = false, maxPhotoBytes: Int = 5 * 1024 * 1024, maxLineBytes: Int = 10 * 1024 * 1024) {
        self.strict = strict
        self.maxPhotoBytes = maxPhotoBytes
        self.maxLineBytes = maxLineBytes
    }

    /// Reads every card of a file.
    ///
    /// - Returns: The cards read, in file order, and the issues of the cards skipped (always empty when strict).
    /// - Throws: In strict mode, the first ``VCardIssue``.
    public func read(_ data: Data) throws(VCardIssue) -> (cards: [VCardCard], issues: [VCardIssue]) {
        var found: [VCardCard] = []
        var issues: [VCardIssue] = []
        for result in cards(from: data) {
            switch result {
            case .success(let card): found.append(card)
            case .failure(let issue):
                if strict { throw issue }
                issues.append(issue)
            }
        }
        return (found, issues)
    }

    /// Reads every card of a file given as text.
    public func read(_ text: String) throws(VCardIssue) -> (cards: [VCardCard], issues: [VCardIssue]) {
        try read(Data(text.utf8))
    }

    /// The cards of a file one at a time, parsed as the sequence is iterated, so a huge file never has all its
    /// contacts in memory at once. In strict mode the sequence ends after its first failure.
    public func cards(from data: Data) -> VCardSequence {
        VCardSequence(data: data, reader: self)
    }
}
