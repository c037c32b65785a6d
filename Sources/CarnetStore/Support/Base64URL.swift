/// URL-safe base64 without padding (RFC 4648 §5): the form of every history token, cursor and access token Carnet
/// hands out.
///
/// Written out rather than through Foundation: `base64EncodedString()` followed by three `replacingOccurrences`
/// took 3% of a server's CPU under single-contact saves (a save encodes its history token inside the write
/// transaction), and a page encodes a cursor per contact.
package enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's 6-bit value, or 0xFF. Both alphabets decode (`-_` and `+/`), as Foundation's did after the
    /// URL-safe characters were swapped back.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        let length = (input.count * 4 + 2) / 3
        return alphabet.withUnsafeBufferPointer { symbols in
            String(unsafeUninitializedCapacity: length) { output in
                var read = 0
                var written = 0
                func put(_ group: UInt32, _ count: Int) {
                    for index in 0..<count { output[written + index] = symbols[Int(group >> (18 - 6 * index) & 63)] }
                    written += count
                }
                while read + 3 <= input.count {
                    put(UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2]), 4)
                    read += 3
                }
                switch input.count - read {
                case 1: put(UInt32(input[read]) << 16, 2)
                case 2: put(UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8, 3)
                default: break
                }
                return written
            }
        }
    }

    /// The bytes of `text`; `nil` for anything that is not base64 (a wrong length, a character outside both
    /// alphabets, padding anywhere but at the end of a whole group).
    package static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        var end = input.count
        while end > 0, input.count - end < 2, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
        guard end == input.count || input.count % 4 == 0, end % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(end * 3 / 4)
        var bits: UInt32 = 0
        var held = 0
        for index in 0..<end {
            let value = values[Int(input[index])]
            guard value != 0xFF else { return nil }
            bits = bits << 6 | UInt32(value)
            held += 6
            if held >= 8 {
                held -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> held))
                bits &= (1 << held) - 1
            }
        }
        return output
    }

    /// The UTF-8 text of `text`'s bytes; `nil` when either is malformed.
    package static func decodeText(_ text: String) -> String? {
        decode(text).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
