import Foundation

/// Lenient base64 for PHOTO values: whitespace left by folding is skipped, missing padding is added and the
/// URL-safe alphabet is accepted, because exporters differ on all three.
enum Base64 {
    enum Failure: Error {
        case invalid
        /// The decoded size, over the limit; found before decoding anything.
        case tooLarge(Int)
    }

    static func decode(_ bytes: Bytes, maxBytes: Int) -> Result<Data, Failure> {
        var clean: [UInt8] = []
        clean.reserveCapacity(bytes.count)
        var padding = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding { return .failure(.invalid) }
                clean.append(byte)
            case UInt8(ascii: "-"):
                if padding { return .failure(.invalid) }
                clean.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"):
                if padding { return .failure(.invalid) }
                clean.append(UInt8(ascii: "/"))
            case Byte.equals:
                padding = true
            case Byte.space, Byte.tab, Byte.cr, Byte.lf:
                continue
            default:
                return .failure(.invalid)
            }
        }
        if clean.count % 4 == 1 { return .failure(.invalid) }
        let size = clean.count / 4 * 3 + max(0, clean.count % 4 - 1)
        if size > maxBytes { return .failure(.tooLarge(size)) }
        while clean.count % 4 != 0 { clean.append(Byte.equals) }
        guard let data = Data(base64Encoded: Data(clean)) else { return .failure(.invalid) }
        return .success(data)
    }
}
