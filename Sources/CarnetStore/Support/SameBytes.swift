/// Byte-for-byte equality of text, as the databases compare what they store. Swift's `==` takes canonically
/// equivalent spellings (NFC "é" and NFD "e\u{301}") for one, so a save deciding with it dropped an update from one
/// spelling to the other: the client's bytes were not stored and no revision said so.
extension StringProtocol {
    package func hasSameBytes(as other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}

extension Optional where Wrapped: StringProtocol {
    /// Both `nil`, or both text of the same bytes.
    package func hasSameBytes(as other: Self) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let text?, let other?): text.hasSameBytes(as: other)
        default: false
        }
    }
}
