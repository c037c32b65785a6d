import CarnetStore

/// Text compared byte for byte (its UTF-8), as the store compares UIDs, identifiers and group names: the key of
/// every UID and name lookup of an import.
///
/// Swift's `==` on `String` takes canonically equivalent spellings for one: keyed by `String`, two cards whose UIDs
/// differ only as "x-é" and "x-e\u{301}" were one contact (the later replaced the earlier), and two groups named
/// "José" and "Jose\u{301}" were one, while the store holds both apart (an outside tester's bug-03 and bug-06).
/// Store identifiers stay `String`s: they are ASCII (``Identifiers/isValid(_:)``), where `==` compares bytes.
struct ExactText: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.hasSameBytes(as: rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The texts without repeats (byte for byte), in their order.
    static func distinct(_ texts: some Sequence<String>) -> [String] {
        var seen: Set<ExactText> = []
        return texts.filter { seen.insert(ExactText($0)).inserted }
    }
}
