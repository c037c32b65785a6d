import Foundation

/// A vCard 2.1 property kept unmapped, rewritten so that 3.0 and 4.0 files can carry it: 2.1's encodings are
/// undone (a quoted-printable value kept as such would be read as plain text by a 3.0 reader, and a fold after
/// its `=` would be a soft line break on the next read), the value becomes UTF-8 without CHARSET, bare
/// parameters become `TYPE=`, line breaks `\n`, a literal backslash `\\` and a comma `\,` (2.1 text has no
/// lists, and a 3.0 reader takes a bare comma for one: `X-PRICE:50,00` read back as `50`). A base64 value becomes
/// a `data:` URI, which both versions read.
enum KeptLine {
    static func from21(_ line: ContentLine, values: ValueDecoder) throws(VCardIssue) -> String {
        var text = ""
        if let group = line.group {
            text += group
            text += "."
        }
        text += line.name
        let encoding = line.encoding
        let isBase64 = encoding == "B" || encoding == "BASE64"
        for parameter in line.parameters where parameter.name != "ENCODING" && parameter.name != "CHARSET" {
            if isBase64, parameter.name == "VALUE" { continue }
            text += ";\(parameter.name)=\(Escaping.parameter(parameter.value))"
        }
        if isBase64 {
            let payload = line.value.filter { !Byte.isWhitespace($0) }
            let type = line.types.first { mediaTypes[$0] != nil }.flatMap { mediaTypes[$0] }
            text += ";VALUE=uri:data:\(type ?? "application/octet-stream");base64,"
            text += String(decoding: payload, as: UTF8.self)
            return text
        }
        text += ":"
        text += escaped(try values.decodedVerbatim(line))
        return text
    }

    /// Line breaks as `\n`; a backslash that is no 2.1 escape (`\;`) as `\\`; a comma as `\,`.
    static func escaped(_ value: String) -> String {
        guard
            value.utf8.contains(where: {
                $0 == Byte.backslash || $0 == Byte.cr || $0 == Byte.lf || $0 == Byte.comma
            })
        else { return value }
        return Escaping.replacing(value, lineBreak: #"\n"#) { scalar, next in
            switch scalar {
            case "\\" where next == ";": nil
            case "\\": #"\\"#
            case ",": #"\,"#
            default: nil
            }
        }
    }

    private static let mediaTypes: [String: String] = [
        "jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "gif": "image/gif", "bmp": "image/bmp",
        "tiff": "image/tiff", "wav": "audio/wav", "mp3": "audio/mpeg", "pgp": "application/pgp-keys",
    ]
}
