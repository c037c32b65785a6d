import Foundation

/// A file's bytes ready for scanning: UTF-8 (or an ASCII-compatible 8-bit charset named by CHARSET parameters),
/// without a byte order mark. UTF-16 files, recognised by their byte order mark, are converted to UTF-8 first;
/// others are not copied.
struct FileBytes: Sendable {
    let bytes: Data
    /// Set when the whole file is unreadable (UTF-16 that does not decode).
    let issue: VCardIssue?

    init(_ data: Data) {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = data.dropFirst(3)
            issue = nil
        } else if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            let encoding: String.Encoding = data.first == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            if let text = String(data: data.dropFirst(2), encoding: encoding) {
                bytes = Data(text.utf8)
                issue = nil
            } else {
                bytes = Data()
                issue = VCardIssue(
                    line: 1, message: "the file starts with a UTF-16 byte order mark but is not valid UTF-16")
            }
        } else {
            bytes = data
            issue = nil
        }
    }
}
