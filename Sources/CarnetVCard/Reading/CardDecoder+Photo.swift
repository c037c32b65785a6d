import CarnetStore

extension CardDecoder {
    /// PHOTO as base64 (`ENCODING=b` in 3.0, `ENCODING=BASE64` in 2.1) or a `data:` URI (4.0). A photo given by
    /// URL cannot be fetched here, so it is kept unmapped; so is a second photo, and one over `maxPhotoBytes`.
    mutating func mapPhoto(_ line: ContentLine) throws(VCardIssue) -> Bool {
        guard imageData == nil else { return false }
        let payload: Bytes
        if let encoding = line.encoding, encoding == "B" || encoding == "BASE64" {
            payload = line.value
        } else if line.value.prefix(5).equalsIgnoringCase(Array("DATA:".utf8)) {
            guard let comma = line.value.firstIndex(of: Byte.comma),
                line.value[..<comma].containsIgnoringCase(Array(";BASE64".utf8))
            else { return false }
            payload = line.value[(comma + 1)...]
        } else {
            return false
        }
        switch Base64.decode(payload, maxBytes: maxPhotoBytes) {
        case .success(let data):
            if !data.isEmpty { imageData = data }
            return true
        case .failure(.invalid):
            throw values.issue(line, "PHOTO is not valid base64")
        case .failure(.tooLarge):
            // Over the store's image limit: kept as written (and reported), so the card still imports.
            oversizedPhoto = current
            return false
        }
    }
}
