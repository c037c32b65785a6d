/// A position in the duplicate candidates' order: the score and both identifiers of the last candidate seen.
///
/// A keyset position, like ``ContactCursor``: candidates that come and go between pages do not shift the ones
/// after it.
package struct DuplicateCursor: Hashable {
    package var scorePoints: Int
    package var firstIdentifier: String
    package var secondIdentifier: String

    package init(_ candidate: DuplicateCandidate) {
        scorePoints = candidate.scorePoints
        firstIdentifier = candidate.firstIdentifier
        secondIdentifier = candidate.secondIdentifier
    }

    /// The cursor as a client sees it, bound to its store (address book) like ``ContactCursor``'s.
    package func encoded(storeID: String) -> String {
        let text = "d2|\(storeID)|\(scorePoints)|\(firstIdentifier)|\(secondIdentifier)"
        return Base64URL.encode(text.utf8)
    }

    /// Decodes a cursor of `storeID`'s candidates; throws ``StoreError/Code/predicateInvalid`` for anything this
    /// store did not write.
    package init(encoded: String, storeID: String) throws {
        guard encoded.utf8.count <= 1024, let text = Base64URL.decodeText(encoded) else { throw Self.invalid }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "d2", let points = Int(parts[2]), (0...100).contains(points),
            Identifiers.isValid(parts[3]), Identifiers.isValid(parts[4]), parts[3] < parts[4]
        else { throw Self.invalid }
        guard parts[1] == storeID else {
            throw StoreError(.predicateInvalid, "The cursor belongs to another address book's candidates")
        }
        scorePoints = points
        firstIdentifier = parts[3]
        secondIdentifier = parts[4]
    }

    /// Whether `candidate` comes after this position: a lower score, or the same score and higher identifiers.
    package func precedes(_ candidate: DuplicateCandidate) -> Bool {
        let points = candidate.scorePoints
        if points != scorePoints { return points < scorePoints }
        if candidate.firstIdentifier != firstIdentifier { return candidate.firstIdentifier > firstIdentifier }
        return candidate.secondIdentifier > secondIdentifier
    }

    package static let invalid = StoreError(.predicateInvalid, "Malformed duplicate candidates cursor")
}
