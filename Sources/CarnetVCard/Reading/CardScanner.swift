import Foundation

/// Splits a file into cards and each card into unfolded logical lines.
///
/// It knows only line structure: line ends (CRLF, LF or lone CR), folding (a line starting with a space or tab
/// continues the previous one), vCard 2.1's quoted-printable soft line breaks (a QP line ending in `=`), and the
/// BEGIN:VCARD / END:VCARD boundaries. Everything else is the decoder's job.
///
/// The file is read in place (a memory-mapped file stays mapped, not copied). A card's unfolded lines are copied
/// back to back into one buffer, reused from card to card, so decoding a card borrows a single contiguous buffer
/// and allocates nothing for it.
struct CardScanner {
    let data: Data
    /// The file's bytes while ``next()`` runs (borrowed from `data`); empty otherwise.
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    let maxLineBytes: Int
    /// LF, or CR for files that use lone CRs (classic Mac OS); a CR before an LF is dropped either way.
    let separator: UInt8
    var position = 0
    /// The number of the last physical line read.
    var lineNumber = 0
    /// The last card's unfolded lines and where each is in the buffer.
    var cardBytes: [UInt8] = []
    var cardLines: [RawLine] = []

    static let begin = Array("BEGIN:VCARD".utf8)
    static let end = Array("END:VCARD".utf8)
    static let quotedPrintable = Array("QUOTED-PRINTABLE".utf8)
    static let agent = Array("AGENT".utf8)

    init(data: Data, maxLineBytes: Int) {
        self.data = data
        self.maxLineBytes = maxLineBytes
        self.separator = data.contains(Byte.lf) || !data.contains(Byte.cr) ? Byte.lf : Byte.cr
    }

    /// Scans the next card, or finds the issue that stands in its place; `nil` at the end of the file. A card's
    /// result is its BEGIN:VCARD line; ``withCard(_:)`` lends its lines.
    mutating func next() -> Result<Int, VCardIssue>? {
        let data = self.data
        return data.withUnsafeBytes { raw in
            bytes = raw.assumingMemoryBound(to: UInt8.self)
            defer { bytes = UnsafeBufferPointer(start: nil, count: 0) }
            return nextItem()
        }
    }

    private mutating func nextItem() -> Result<Int, VCardIssue>? {
        while let range = readLine() {
            if isBlank(range) { continue }
            if matches(range, Self.begin) || matchesFolded(range, Self.begin) { return scanCard() }
            if matches(range, Self.end) || matchesFolded(range, Self.end) {
                return .failure(VCardIssue(line: lineNumber, message: "END:VCARD without BEGIN:VCARD"))
            }
            return .failure(skipText())
        }
        return nil
    }

    /// Lends the last scanned card's buffer and lines.
    func withCard<R>(_ body: (UnsafeBufferPointer<UInt8>, [RawLine]) -> R) -> R {
        cardBytes.withUnsafeBufferPointer { body($0, cardLines) }
    }

    private mutating func scanCard() -> Result<Int, VCardIssue> {
        let beginLine = lineNumber
        cardBytes.removeAll(keepingCapacity: true)
        cardLines.removeAll(keepingCapacity: true)
        // The line being built is the last one in the buffer, from `currentStart`; `nil` when there is none.
        var currentStart: Int?
        var currentNumber = 0
        // The current line's head (name and parameters, to its first colon): whether it asks for quoted-printable,
        // once the colon is in; until then, where the search for the colon resumes. Looked at only when a line
        // ends in `=`, and decided once per line: asked again at every continuation after an `=`, a rescan of a
        // 20 KB head per line was quadratic (10,000 lines: 23 s).
        var headIsQuotedPrintable: Bool?
        var colonSearch = 0
        var problem: VCardIssue?
        func tooLong(_ line: Int) -> VCardIssue {
            VCardIssue(line: line, cardLine: beginLine, message: "line longer than \(maxLineBytes) bytes")
        }
        while true {
            let mark = (position, lineNumber)
            guard let range = readLine() else {
                return .failure(
                    VCardIssue(line: beginLine, message: "card has no END:VCARD before the end of the file"))
            }
            if let start = currentStart, cardBytes.last == Byte.equals, headIsQuotedPrintable == nil {
                let from = max(start, min(colonSearch, cardBytes.count))
                if let colon = cardBytes[from...].firstIndex(of: Byte.colon) {
                    headIsQuotedPrintable = cardBytes[start..<colon].containsIgnoringCase(Self.quotedPrintable)
                } else {
                    colonSearch = cardBytes.count
                }
            }
            if let start = currentStart, cardBytes.last == Byte.equals, !matches(range, Self.end),
                !matches(range, Self.begin), headIsQuotedPrintable == true
            {
                // A quoted-printable soft line break: the `=` and the line end are not part of the value, and
                // the next line is all value, even when it starts with a space.
                cardBytes.removeLast()
                append(range)
                if cardBytes.count - start > maxLineBytes {
                    problem = problem ?? tooLong(currentNumber)
                    cardBytes.removeSubrange(start...)
                    currentStart = nil
                }
                continue
            }
            if let first = range.first.map({ bytes[$0] }), Byte.isWhitespace(first) {
                // A continuation; one after a dropped (too long) line or a blank line has nothing to continue.
                guard let start = currentStart else { continue }
                append((range.lowerBound + 1)..<range.upperBound)
                if cardBytes.count - start > maxLineBytes {
                    problem = problem ?? tooLong(currentNumber)
                    cardBytes.removeSubrange(start...)
                    currentStart = nil
                }
                continue
            }
            if let start = currentStart {
                cardLines.append(RawLine(range: start..<cardBytes.count, number: currentNumber))
                currentStart = nil
            }
            headIsQuotedPrintable = nil
            colonSearch = 0
            if isBlank(range) { continue }
            if matches(range, Self.end) || matchesFolded(range, Self.end) {
                if let problem { return .failure(problem) }
                return .success(beginLine)
            }
            if matches(range, Self.begin) || matchesFolded(range, Self.begin) {
                (position, lineNumber) = mark
                let message = "card has no END:VCARD before the next BEGIN:VCARD at line \(mark.1 + 1)"
                return .failure(VCardIssue(line: beginLine, message: message))
            }
            if range.count > maxLineBytes {
                problem = problem ?? tooLong(lineNumber)
                continue
            }
            // Once the card is known bad, its lines are not kept.
            if problem != nil { continue }
            currentStart = cardBytes.count
            currentNumber = lineNumber
            append(range)
            if isEmbeddingAgent(range) {
                guard embedAgent() else {
                    return .failure(
                        VCardIssue(line: beginLine, message: "card has no END:VCARD before the end of the file"))
                }
                if let start = currentStart, cardBytes.count - start > maxLineBytes {
                    problem = problem ?? tooLong(currentNumber)
                    cardBytes.removeSubrange(start...)
                    currentStart = nil
                }
            }
        }
    }

    /// Whether a line is vCard 2.1's AGENT with a card inside (`AGENT:` then `BEGIN:VCARD` as its whole value): the
    /// lines down to its own END:VCARD are the agent's, not the card's.
    private func isEmbeddingAgent(_ range: Range<Int>) -> Bool {
        guard let colon = range.first(where: { bytes[$0] == Byte.colon }) else { return false }
        var nameEnd = colon
        if let semicolon = (range.lowerBound..<colon).first(where: { bytes[$0] == Byte.semicolon }) {
            nameEnd = semicolon
        }
        let nameStart = (range.lowerBound..<nameEnd).last { bytes[$0] == Byte.dot }.map { $0 + 1 } ?? range.lowerBound
        return matches(nameStart..<nameEnd, Self.agent) && matches((colon + 1)..<range.upperBound, Self.begin)
    }

    /// Takes an embedded card's lines into the AGENT line that opened it, each after a line break (a kept 2.1 line
    /// writes them as `\n`, 3.0's form of the same AGENT), down to the END:VCARD that closes it; cards nested in
    /// it count. Before, its END:VCARD ended the outer card: the agent's name and phone became the card's, and the
    /// card's own lines after it were text outside any card. False at the end of the file.
    private mutating func embedAgent() -> Bool {
        var depth = 0
        while let range = readLine() {
            if isBlank(range) { continue }
            cardBytes.append(Byte.lf)
            append(range)
            if matches(range, Self.begin) {
                depth += 1
            } else if matches(range, Self.end) {
                if depth == 0 { return true }
                depth -= 1
            }
        }
        return false
    }

    /// Copies file bytes to the end of the card buffer.
    private mutating func append(_ range: Range<Int>) {
        cardBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }
}

/// `bytes` borrows `data` only while ``CardScanner/next()`` runs and is empty between calls, so a scanner holds
/// nothing but its own values when it is handed to another thread (an import reads its next batch on one).
extension CardScanner: @unchecked Sendable {}
