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
    private let data: Data
    /// The file's bytes while ``next()`` runs (borrowed from `data`); empty otherwise.
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private let maxLineBytes: Int
    /// LF, or CR for files that use lone CRs (classic Mac OS); a CR before an LF is dropped either way.
    private let separator: UInt8
    private var position = 0
    /// The number of the last physical line read.
    private var lineNumber = 0
    /// The last card's unfolded lines and where each is in the buffer.
    private var cardBytes: [UInt8] = []
    private var cardLines: [RawLine] = []

    private static let begin = Array("BEGIN:VCARD".utf8)
    private static let end = Array("END:VCARD".utf8)
    private static let quotedPrintable = Array("QUOTED-PRINTABLE".utf8)

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
            if matches(range, Self.begin) { return scanCard() }
            if matches(range, Self.end) {
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
        var problem: VCardIssue?
        func tooLong(_ line: Int) -> VCardIssue {
            VCardIssue(line: line, cardLine: beginLine, message: "line longer than \(maxLineBytes) bytes")
        }
        while true {
            let mark = (position, lineNumber)
            guard let range = readLine() else {
                return .failure(VCardIssue(line: beginLine, message: "card has no END:VCARD before the end of the file"))
            }
            if let start = currentStart, cardBytes.last == Byte.equals, !matches(range, Self.end),
                !matches(range, Self.begin), isQuotedPrintable(cardBytes[start...])
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
            if isBlank(range) { continue }
            if matches(range, Self.end) {
                if let problem { return .failure(problem) }
                return .success(beginLine)
            }
            if matches(range, Self.begin) {
                (position, lineNumber) = mark
                return .failure(VCardIssue(
                    line: beginLine, message: "card has no END:VCARD before the next BEGIN:VCARD at line \(mark.1 + 1)"))
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
        }
    }

    /// Copies file bytes to the end of the card buffer.
    private mutating func append(_ range: Range<Int>) {
        cardBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Skips text outside any card up to the next BEGIN:VCARD or END:VCARD, and reports it once.
    private mutating func skipText() -> VCardIssue {
        let first = lineNumber
        var last = first
        while true {
            let mark = (position, lineNumber)
            guard let range = readLine() else { break }
            if matches(range, Self.begin) || matches(range, Self.end) {
                (position, lineNumber) = mark
                break
            }
            if !isBlank(range) { last = lineNumber }
        }
        return VCardIssue(line: first, message: last == first ? "text outside any card" : "text outside any card (lines \(first)-\(last))")
    }

    /// The next physical line without its line end, or `nil` at the end of the file.
    private mutating func readLine() -> Range<Int>? {
        guard position < bytes.count else { return nil }
        let start = position
        var end = bytes.count
        if let base = bytes.baseAddress, let hit = memchr(base + start, Int32(separator), bytes.count - start) {
            end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        }
        position = end < bytes.count ? end + 1 : end
        lineNumber += 1
        if separator == Byte.lf, end > start, bytes[end - 1] == Byte.cr { return start..<(end - 1) }
        return start..<end
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        range.allSatisfy { Byte.isWhitespace(bytes[$0]) }
    }

    private func matches(_ range: Range<Int>, _ upper: [UInt8]) -> Bool {
        guard range.count >= upper.count, range.count < upper.count + 16 else { return false }
        var lower = range.lowerBound
        var upperBound = range.upperBound
        while lower < upperBound, Byte.isWhitespace(bytes[lower]) { lower += 1 }
        while upperBound > lower, Byte.isWhitespace(bytes[upperBound - 1]) { upperBound -= 1 }
        return upperBound - lower == upper.count
            && zip(lower..<upperBound, upper).allSatisfy { Byte.uppercased(bytes[$0]) == $1 }
    }

    /// Whether the line's name and parameters (the part before the first colon) ask for quoted-printable.
    private func isQuotedPrintable(_ line: some Collection<UInt8>) -> Bool {
        let head = line.prefix { $0 != Byte.colon }
        return head.count < line.count && head.containsIgnoringCase(Self.quotedPrintable)
    }
}
