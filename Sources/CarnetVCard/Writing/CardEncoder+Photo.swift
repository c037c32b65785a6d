import CarnetStore
import Foundation

extension CardEncoder {
    /// The image (or, when only the thumbnail was fetched, the thumbnail) in base64: `ENCODING=b;TYPE=JPEG` in
    /// 3.0, a `data:` URI in 4.0.
    mutating func encodePhoto() {
        guard let data = value(.imageData, \.imageData, nil) ?? value(.thumbnailImageData, \.thumbnailImageData, nil),
            !data.isEmpty
        else { return }
        let (type, mediaType) = Self.imageType(data)
        let base64 = data.base64EncodedString()
        if version == .v40 {
            out.property("PHOTO", value: "data:\(mediaType);base64,\(base64)")
        } else {
            out.property("PHOTO", parameters: [("ENCODING", "b"), ("TYPE", type)], value: base64)
        }
    }

    /// The image format from its first bytes; JPEG when unknown, as Apple assumes.
    static func imageType(_ data: Data) -> (type: String, mediaType: String) {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ("PNG", "image/png") }
        if data.starts(with: [0x47, 0x49, 0x46, 0x38]) { return ("GIF", "image/gif") }
        if data.count > 12, data[data.startIndex + 4..<data.startIndex + 12].elementsEqual(Array("ftypheic".utf8)) {
            return ("HEIC", "image/heic")
        }
        return ("JPEG", "image/jpeg")
    }
}
