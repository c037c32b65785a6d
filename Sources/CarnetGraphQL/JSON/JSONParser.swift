import CarnetStore

/// A strict JSON parser (RFC 8259) for request bodies and variables: UTF-8 only, bounded nesting, integers kept
/// apart from floats so `Int` arguments coerce exactly.
public struct JSONParser {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        /// Whether the text was refused for nesting deeper than the limit (rather than for its syntax): the
        /// client's mistake has its own code, `MAX_NESTING_EXCEEDED`.
        public var isTooDeep = false
        /// Whether a string was refused for a run of combining marks past ``CombiningMarks/maxRun``.
        public var hasTooManyMarks = false
        public var description: String { "Invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int

    /// Parses a whole document. - Throws: ``Failure``.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.fail("unexpected data after the value") }
        return value
    }

    public static func parse(_ text: String, maxDepth: Int = 64) throws -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private func tooManyMarks() -> Failure {
        var failure = fail("a string holds more than \(CombiningMarks.maxRun) combining marks in a row")
        failure.hasTooManyMarks = true
        return failure
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        // Checked before recursing, so a deeply nested body costs neither stack nor time.
        guard depth <= maxDepth else {
            var failure = fail("nested deeper than \(maxDepth)")
            failure.isTooDeep = true
            throw failure
        }
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw fail("unexpected character")
        }
        index += utf8.count
        return value
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        index += 1
        // Request bodies and variables are small objects: one allocation instead of a rehash per insertion.
        var object: [String: JSONValue] = Dictionary(minimumCapacity: 4)
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try parseString()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipSpace()
            // I-JSON (RFC 7493) refuses a name twice in one object: parsers disagree on which one counts, so a
            // body read one way by a proxy and another way here (a second "query") is refused, not guessed at.
            guard object.updateValue(try parseValue(depth: depth + 1), forKey: key) == nil else {
                throw fail("a key appears twice in one object")
            }
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw fail("invalid number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits() else { throw fail("invalid number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() else { throw fail("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw fail("invalid number") }
        // 1e999999 parses as infinity, which no GraphQL value can hold: out of the range I-JSON allows.
        guard value.isFinite else { throw fail("number out of range (beyond a 64-bit float)") }
        return .double(value)
    }

    @discardableResult
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func parseString() throws -> String {
        index += 1
        // Most strings (a whole query, an id) have no escapes: scan to the closing quote and decode once. ASCII
        // needs no validation, and the common case is ASCII.
        var end = index
        var high: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = index
            let decoded = bytes.withUnsafeBufferPointer { buffer -> String? in
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                return high < 0x80 ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            guard let text = decoded else { throw fail("invalid UTF-8") }
            if high >= 0x80, CombiningMarks.exceedsRun(text) { throw tooManyMarks() }
            index = end + 1
            return text
        }
        var out = Array(bytes[index..<end])
        index = end
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
                if out.contains(where: { $0 >= 0x80 }), CombiningMarks.exceedsRun(text) { throw tooManyMarks() }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case ..<0x20:
                throw fail("control character in string")
            default:
                out.append(byte)
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws {
        guard index < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw fail("lone surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw fail("lone surrogate")
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw fail("invalid \\u escape") }
        index += 4
        return value
    }
}
