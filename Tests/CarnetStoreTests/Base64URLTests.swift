import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// The base64url of tokens and cursors, written out by hand: it must give exactly the text Foundation's encoding
/// gave (tokens and cursors already in clients' hands stay valid), read it back, and refuse what is not base64.
@Suite("Base64URL")
struct Base64URLTests {
    /// The encoding before it was written out, kept as the oracle.
    static func foundationEncoding(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test("Any bytes encode as Foundation encoded them, and decode back, in either alphabet, padded or not")
    func sameAsFoundation() {
        var random = SeededRandom(seed: 41)
        for round in 0..<5_000 {
            let bytes = (0..<random.int(0...70)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.foundationEncoding(bytes), "round \(round)")
            #expect(Base64URL.decode(encoded) == bytes, "round \(round): \(encoded)")
            #expect(Base64URL.decode(Data(bytes).base64EncodedString()) == bytes, "round \(round), padded")
        }
    }

    @Test("Text that is not base64 decodes to nothing", arguments: ["A", "AAAAA", "A=AA", "AA===", "AA=", "A A=", "é"])
    func refuses(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("Tokens and cursors read back what they wrote")
    func tokensRoundTrip() throws {
        let token = HistoryToken(
            storeID: "store-1", position: 42, snapshot: .init(phase: .groups, afterFirst: 7, afterSecond: -1))
        #expect(HistoryToken(encoded: token.encoded) == token)
        #expect(Base64URL.decodeText(token.encoded)?.hasPrefix("3|store-1|42||1|7|-1|") == true)
        let cursor = ContactCursor(order: .familyName, rowid: 9, identifier: "c-1", sortKey: "smith\u{1}anna|é")
        let text = cursor.encoded(storeID: "store-1")
        #expect(try ContactCursor(encoded: text, order: .familyName) == cursor)
        #expect(throws: Never.self) { try ContactCursor.check(.first(5, after: text), storeID: "store-1") }
        #expect(throws: StoreError.self) { try ContactCursor.check(.last(5, before: text), storeID: "store-2") }
        // Not UTF-8 inside: refused as before.
        #expect(HistoryToken(encoded: Base64URL.encode([0xFF, 0xFE])) == nil)
    }
}
