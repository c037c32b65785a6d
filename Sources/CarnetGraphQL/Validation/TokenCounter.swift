/// Counts a GraphQL document's lexical tokens before anything parses it, so a huge document is refused cheaply.
/// Whitespace, commas and comments are not tokens; a string or block string is one.
enum TokenCounter {
    /// The number of tokens, or `nil` once it passes `limit` (counting stops there).
    static func count(_ text: String, limit: Int) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        var count = 0
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","):
                index += 1
                continue
            case 0xEF where at(1) == 0xBB && at(2) == 0xBF:  // a byte order mark
                index += 3
                continue
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                continue
            case UInt8(ascii: "\""):
                if at(1) == UInt8(ascii: "\""), at(2) == UInt8(ascii: "\"") {
                    index += 3
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\\"), at(1) == UInt8(ascii: "\""), at(2) == UInt8(ascii: "\""),
                            at(3) == UInt8(ascii: "\"")
                        {
                            index += 4
                        } else if bytes[index] == UInt8(ascii: "\""), at(1) == UInt8(ascii: "\""), at(2) == UInt8(ascii: "\"") {
                            index += 3
                            break
                        } else {
                            index += 1
                        }
                    }
                } else {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != 0x0A {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                }
            case UInt8(ascii: "."):
                index += at(1) == UInt8(ascii: ".") && at(2) == UInt8(ascii: ".") ? 3 : 1
            case UInt8(ascii: "_"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                index += 1
                while index < bytes.count, Self.isNamePart(bytes[index]) { index += 1 }
            default:
                index += 1
            }
            count += 1
            if count > limit { return nil }
        }
        return count
    }

    private static func isNamePart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
