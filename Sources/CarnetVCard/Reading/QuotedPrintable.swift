/// Quoted-printable (RFC 2045 §6.7), as vCard 2.1 uses it.
enum QuotedPrintable {
    /// The decoded bytes, or `nil` when an `=` is not followed by two hex digits. Soft line breaks were already
    /// joined by the scanner; a trailing `=` left over from one is dropped.
    static func decode(_ bytes: Bytes) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == Byte.equals else {
                result.append(byte)
                index += 1
                continue
            }
            if index + 1 == bytes.endIndex { break }
            guard index + 2 < bytes.endIndex, let high = Byte.hexValue(bytes[index + 1]),
                let low = Byte.hexValue(bytes[index + 2])
            else { return nil }
            result.append(high << 4 | low)
            index += 3
        }
        return result
    }
}
