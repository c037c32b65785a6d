/// The CHARSET parameter values Carnet decodes: all ASCII-compatible, so escapes and separators can be found
/// in the bytes before decoding.
enum Charset {
    case utf8
    case latin1
    case windows1252

    init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii": self = .latin1
        case "windows-1252", "cp1252", "cp-1252", "win-1252", "x-cp1252", "windows1252": self = .windows1252
        default: return nil
        }
    }

    /// The text, or `nil` for UTF-8 that is not valid. The 8-bit charsets decode any byte.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch self {
        case .utf8:
            return UTF8Validation.isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
        case .latin1:
            var text = String.UnicodeScalarView()
            for byte in bytes { text.append(Unicode.Scalar(byte)) }
            return String(text)
        case .windows1252:
            var text = String.UnicodeScalarView()
            for byte in bytes {
                if (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(Self.windows1252High[Int(byte) - 0x80]) {
                    text.append(scalar)
                } else {
                    text.append(Unicode.Scalar(byte))
                }
            }
            return String(text)
        }
    }

    /// Windows-1252's 0x80–0x9F; the five unassigned bytes keep their Latin-1 (C1 control) meaning, as WHATWG does.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
