import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

/// No value holds a control character: C0 and DEL, and the C1 controls (U+0080–U+009F), which are not ASCII; nor
/// does a single-line value hold a line or paragraph separator (U+2028, U+2029). Multiline values (a note) keep
/// tab, CR, LF and the separators. An outside fuzzer found `"a\u{85}b"` stored as a family name.
@Suite("Control characters in values")
struct ControlCharacterValidationTests {
    static let refusedEverywhere: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}",
    ]
    static let lineBreaks: [Unicode.Scalar] = ["\n", "\r", "\t", "\u{2028}", "\u{2029}"]
    static let kept: [Unicode.Scalar] = ["\u{A0}", "\u{A9}", "é", "\u{200D}", "\u{2027}", "\u{202A}", "😀"]

    @Test("The rule, character by character, single-line and multiline")
    func rule() {
        for scalar in Self.refusedEverywhere {
            #expect(!Validation.text("a\(scalar)b", limit: 100), "U+\(String(scalar.value, radix: 16))")
            #expect(
                !Validation.text("a\(scalar)b", limit: 100, multiline: true), "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in Self.lineBreaks {
            #expect(!Validation.text("a\(scalar)b", limit: 100), "U+\(String(scalar.value, radix: 16))")
            #expect(Validation.text("a\(scalar)b", limit: 100, multiline: true), "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in Self.kept {
            #expect(Validation.text("a\(scalar)b\(scalar)", limit: 100), "U+\(String(scalar.value, radix: 16))")
        }
        // Byte by byte agrees with the character rule over every scalar of the first planes, after an ASCII letter
        // and after a two-byte letter.
        for value in UInt32(0)..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for multiline in [false, true] {
                let allowed = Validation.allows(scalar, multiline: multiline)
                #expect(Validation.text("a\(scalar)", limit: 100, multiline: multiline) == allowed)
                #expect(Validation.text("é\(scalar)", limit: 100, multiline: multiline) == allowed)
            }
        }
    }

    @Test("A save refuses a C1 control in a name, and nothing is written", arguments: StoreKind.available)
    func saveRefuses(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        for name in ["a\u{85}b", "a\u{9B}b", "a\u{2028}b"] {
            let error = await #expect(throws: StoreError.self) { try await store.add([Make.person("Anna", name)]) }
            #expect(error?.code == .validationFailed && error?.keyPaths == ["familyName"])
        }
        var contact = Make.person("Anna", "Smith")
        contact.note = "line\u{2028}next\nlast"
        try await store.add([contact])
        #expect(try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.count == 1)
    }
}
