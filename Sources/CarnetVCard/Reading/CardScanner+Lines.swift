import Foundation

/// Physical lines and the tests made on them.
extension CardScanner {
    /// Skips text outside any card up to the next BEGIN:VCARD or END:VCARD, and reports it once.
    mutating func skipText() -> VCardIssue {
        let first = lineNumber
        var last = first
        while true {
            let mark = (position, lineNumber)
            guard let range = readLine() else { break }
            if matches(range, Self.begin) || matches(range, Self.end) || matchesFolded(range, Self.begin)
                || matchesFolded(range, Self.end)
            {
                (position, lineNumber) = mark
                break
            }
            if !isBlank(range) { last = lineNumber }
        }
        let lines = last == first ? "" : " (lines \(first)-\(last))"
        return VCardIssue(line: first, message: "text outside any card" + lines)
    }

    /// The next physical line without its line end, or `nil` at the end of the file.
    mutating func readLine() -> Range<Int>? {
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

    /// Whether `range` starts a BEGIN:VCARD or END:VCARD (`upper`) that is folded over the lines after it, as
    /// RFC 6350 3.2 lets any line be (`END:V` then ` CARD`); if so, the continuation lines are consumed. Only a
    /// line that is a strict prefix of the keyword looks ahead, at most a few lines: it stays linear.
    mutating func matchesFolded(_ range: Range<Int>, _ upper: [UInt8]) -> Bool {
        guard !range.isEmpty, range.count < upper.count, !Byte.isWhitespace(bytes[range.lowerBound]),
            zip(range, upper).allSatisfy({ Byte.uppercased(bytes[$0]) == $1 })
        else { return false }
        let start = (position, lineNumber)
        var collected = range.map { Byte.uppercased(bytes[$0]) }
        for _ in 0..<upper.count {
            let mark = (position, lineNumber)
            guard let next = readLine(), let first = next.first, Byte.isWhitespace(bytes[first]) else {
                (position, lineNumber) = mark
                break
            }
            collected += next.dropFirst().map { Byte.uppercased(bytes[$0]) }
            while let last = collected.last, Byte.isWhitespace(last) { collected.removeLast() }
            if collected.count >= upper.count { break }
        }
        if collected == upper { return true }
        (position, lineNumber) = start
        return false
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        range.allSatisfy { Byte.isWhitespace(bytes[$0]) }
    }

    func matches(_ range: Range<Int>, _ upper: [UInt8]) -> Bool {
        guard range.count >= upper.count, range.count < upper.count + 16 else { return false }
        var lower = range.lowerBound
        var upperBound = range.upperBound
        while lower < upperBound, Byte.isWhitespace(bytes[lower]) { lower += 1 }
        while upperBound > lower, Byte.isWhitespace(bytes[upperBound - 1]) { upperBound -= 1 }
        return upperBound - lower == upper.count
            && zip(lower..<upperBound, upper).allSatisfy { Byte.uppercased(bytes[$0]) == $1 }
    }
}
