/// One linear pass over a GraphQL document's bytes before anything parses it: counts lexical tokens and the
/// nesting of `{`, `[` and `(`, and stops at the first limit passed.
///
/// GraphQLSwift's parser, its validation rules and Carnet's own rules all recurse once per nesting level, so a
/// document nested a few thousand levels deep overflows the stack, and some rules print nested values at a cost
/// that grows exponentially with depth. Bounding the nesting here, in a loop with no recursion, is what keeps
/// every later stage's recursion and work bounded.
///
/// Whitespace and commas are not tokens; a comment, a string or a block string is one. Brackets inside strings and
/// comments do not count. Inside parentheses (arguments, variable definitions, directive arguments) every `{` or
/// `[` is a value or a type, which is counted against the value limit; elsewhere `{` opens a selection set.
enum DocumentScanner {
    enum Refusal: Equatable {
        case tooManyTokens
        /// Selection sets nested deeper than the limit; the byte offset of the brace that passed it.
        case selectionsTooDeep(offset: Int)
        /// Values or types nested deeper than the limit; the byte offset of the bracket that passed it.
        case valuesTooDeep(offset: Int)
    }

    struct Bounds {
        var maxTokens: Int
        var maxSelectionNesting: Int
        var maxValueNesting: Int
    }

    /// What an open bracket opened.
    private enum Opened: UInt8 { case selection, parenthesis, value }

    /// The first limit the document passes, or `nil` when it stays within all of them.
    static func scan(_ bytes: [UInt8], _ bounds: Bounds) -> Refusal? {
        var index = 0
        var count = 0
        var open: [Opened] = []
        var selections = 0
        var values = 0
        var parentheses = 0
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
                // Comments count as tokens: GraphQLSwift links every token, comments included, in a list that is
                // freed one element inside the next, so an uncounted run of comments would overflow the stack.
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            case UInt8(ascii: "\""):
                index = endOfString(bytes, from: index)
            case UInt8(ascii: "."):
                index += at(1) == UInt8(ascii: ".") && at(2) == UInt8(ascii: ".") ? 3 : 1
            case UInt8(ascii: "_"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                index += 1
                while index < bytes.count, Self.isNamePart(bytes[index]) { index += 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                let opened: Opened =
                    byte == UInt8(ascii: "(")
                    ? .parenthesis : parentheses > 0 || byte == UInt8(ascii: "[") ? .value : .selection
                switch opened {
                case .selection: selections += 1
                case .parenthesis: parentheses += 1
                case .value: values += 1
                }
                open.append(opened)
                if selections > bounds.maxSelectionNesting { return .selectionsTooDeep(offset: index) }
                // Parentheses never nest in a valid document; counting them as values keeps `((((` bounded too.
                if values + max(0, parentheses - 1) > bounds.maxValueNesting { return .valuesTooDeep(offset: index) }
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                // A mismatched bracket is the parser's to report; here it only closes what was opened last.
                switch open.popLast() {
                case .selection?: selections -= 1
                case .parenthesis?: parentheses -= 1
                case .value?: values -= 1
                case nil: break
                }
                index += 1
            default:
                index += 1
            }
            count += 1
            if count > bounds.maxTokens { return .tooManyTokens }
        }
        return nil
    }

    /// The index just past the string or block string that starts at `start` (or the end of the text).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        let quote = UInt8(ascii: "\"")
        if at(1) == quote, at(2) == quote {
            index += 3
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\"), at(1) == quote, at(2) == quote, at(3) == quote {
                    index += 4
                } else if bytes[index] == quote, at(1) == quote, at(2) == quote {
                    return index + 3
                } else {
                    index += 1
                }
            }
            return index
        }
        index += 1
        while index < bytes.count, bytes[index] != quote, bytes[index] != 0x0A, bytes[index] != 0x0D {
            let escapesNext = bytes[index] == UInt8(ascii: "\\") && at(1) != 0x0A && at(1) != 0x0D
            index += escapesNext ? 2 : 1
        }
        return min(index + 1, bytes.count)
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
