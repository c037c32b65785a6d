/// The output of a writer: property lines with CRLF ends, folded at 75 octets.
struct LineWriter {
    private(set) var bytes: [UInt8] = []

    /// RFC 6350 §3.2 and RFC 2426 §2.6: lines SHOULD NOT be longer than 75 octets, excluding the line break.
    static let maxOctets = 75

    init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    /// Writes `[group.]name[;param=value...]:value`. Values and parameter values must already be escaped.
    mutating func property(_ name: String, group: String? = nil, parameters: [(String, String)] = [], value: String) {
        var line = ""
        line.reserveCapacity(name.utf8.count + value.utf8.count + 32)
        if let group {
            line += group
            line += "."
        }
        line += name
        for (parameter, parameterValue) in parameters {
            line += ";"
            line += parameter
            line += "="
            line += parameterValue
        }
        line += ":"
        line += value
        fold(line)
    }

    /// Appends a logical line folded so that no physical line passes 75 octets: continuation lines start with a
    /// space, and a fold never splits a UTF-8 sequence (the cut moves back off continuation bytes).
    mutating func fold(_ line: String) {
        var line = line
        line.withUTF8 { utf8 in
            // A reader joins the line after one that ends in `=` when the head says QUOTED-PRINTABLE (a soft line
            // break, whose next line's space is value): such a line is never cut just after an `=`. Looked at only
            // for a line that folds.
            let softBreaks =
                utf8.count > Self.maxOctets
                && utf8[..<(utf8.firstIndex(of: Byte.colon) ?? utf8.endIndex)].containsIgnoringCase(
                    CardScanner.quotedPrintable)
            var start = 0
            var limit = Self.maxOctets
            while utf8.count - start > limit {
                var cut = start + limit
                while cut > start, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
                if softBreaks {
                    var back = cut
                    while back > start + 1, utf8[back - 1] == Byte.equals { back -= 1 }
                    if utf8[back - 1] != Byte.equals {
                        cut = back
                    } else {
                        // `=` from the line's start past the limit: the line grows past 75 octets (a SHOULD of the
                        // RFCs) to the end of the run and the character after it, rather than change the value.
                        guard let after = Self.cutAfterRun(of: Byte.equals, in: utf8, from: cut) else { break }
                        cut = after
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<cut]))
                bytes.append(contentsOf: [Byte.cr, Byte.lf, Byte.space])
                start = cut
                limit = Self.maxOctets - 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(contentsOf: [Byte.cr, Byte.lf])
        }
    }

    /// The first position after `byte`'s run at `position` and the character that ends it, or `nil` when the run
    /// or that character ends the line.
    private static func cutAfterRun(of byte: UInt8, in utf8: UnsafeBufferPointer<UInt8>, from position: Int) -> Int? {
        var cut = position
        while cut < utf8.count, utf8[cut] == byte { cut += 1 }
        guard cut < utf8.count else { return nil }
        cut += 1
        while cut < utf8.count, utf8[cut] & 0xC0 == 0x80 { cut += 1 }
        return cut < utf8.count ? cut : nil
    }

    /// Appends text already in lines (another writer's output).
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
