/// A view of bytes inside the buffer of the card being decoded.
///
/// Decoding works on unsafe views of one buffer per card rather than on array slices: slices retain and release
/// their array at every copy, which cost more than the parsing itself. A view is only valid while the card's
/// buffer is borrowed (see ``CardScanner/withCard(_:)``); nothing decoded keeps one.
typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

/// The ASCII bytes the parser looks for.
enum Byte {
    static let tab = UInt8(ascii: "\t")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let backslash = UInt8(ascii: "\\")
    static let caret = UInt8(ascii: "^")

    @inline(__always)
    static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// The value of a hexadecimal digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension Collection<UInt8> {
    /// Whether the bytes equal `upper` (an uppercase ASCII string) ignoring ASCII case.
    func equalsIgnoringCase(_ upper: some Collection<UInt8>) -> Bool {
        count == upper.count && zip(self, upper).allSatisfy { Byte.uppercased($0) == $1 }
    }

    /// Whether `upper` (an uppercase ASCII string) occurs in the bytes, ignoring ASCII case.
    func containsIgnoringCase(_ upper: [UInt8]) -> Bool {
        guard let first = upper.first else { return true }
        var start = startIndex
        while start != endIndex {
            if Byte.uppercased(self[start]) == first, self[start...].prefix(upper.count).equalsIgnoringCase(upper) {
                return true
            }
            start = index(after: start)
        }
        return false
    }
}

extension Slice<UnsafeBufferPointer<UInt8>> {
    /// The bytes without leading and trailing spaces and tabs.
    var trimmingWhitespace: Self {
        var result = self
        while let first = result.first, Byte.isWhitespace(first) { result.removeFirst() }
        while let last = result.last, Byte.isWhitespace(last) { result.removeLast() }
        return result
    }

    /// The ASCII bytes as an uppercase string (property and parameter names).
    var uppercasedString: String {
        contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } ? caseMapped(Byte.uppercased) : string
    }

    /// The ASCII bytes as a lowercase string (TYPE values).
    var lowercasedString: String { caseMapped(Byte.lowercased) }

    /// The bytes mapped one by one into a new string; short names stay in the string's inline storage.
    private func caseMapped(_ transform: (UInt8) -> UInt8) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            for (offset, byte) in enumerated() { buffer[offset] = transform(byte) }
            return count
        }
    }

    /// The bytes as text, or `nil` when they are not valid UTF-8.
    var validatedUTF8: String? { Charset.utf8.decode(UnsafeBufferPointer(rebasing: self)) }

    /// The bytes as text, invalid UTF-8 repaired (names and parameters, which are ASCII in valid files).
    var string: String { String(decoding: UnsafeBufferPointer(rebasing: self), as: UTF8.self) }
}
