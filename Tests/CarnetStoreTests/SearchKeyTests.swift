import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// The email and phone keys on generated text: white space and capitals around an address, numbers in other
/// scripts' digits, letters and symbols mixed in.
@Suite("Search keys on generated text")
struct SearchKeyTests {
    /// Pieces of an address or a number: capitals, spaces and control characters, other scripts' digits and letters.
    static let pieces = [
        "a", "Z", "q", "0", "5", "9", "+", "-", "(", ")", ".", "@", " ", "\t", "\n", "\u{01}", "\u{7F}", "é", "É", "İ",
        "٣", "５", "७", "ß", "😀", "00", "+1", "+44", "\u{00A0}",
    ]

    static func text(_ random: inout SeededRandom) -> String {
        (0..<random.int(0...12)).map { _ in random.pick(pieces)! }.joined()
    }

    @Test("An email's key is the address trimmed of white space and lowercased, nil when nothing is left")
    func emailKeys() {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let email = Self.text(&random)
            let trimmed = String(
                String.UnicodeScalarView(
                    email.unicodeScalars.drop { $0 == " " || (0x09...0x0D).contains($0.value) }.reversed()
                        .drop { $0 == " " || (0x09...0x0D).contains($0.value) }.reversed()))
            let expected = trimmed.isEmpty ? nil : trimmed.lowercased()
            #expect(TextFolding.emailKey(email) == expected, "seed \(seed): \(email.debugDescription)")
        }
    }

    @Test("A number's key reads other scripts' digits as the ASCII ones and ignores every other character")
    func phoneKeys() {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let phone = Self.text(&random)
            // The same number in ASCII only.
            var ascii = String.UnicodeScalarView()
            for scalar in phone.unicodeScalars {
                if scalar.isASCII {
                    ascii.append(scalar)
                } else if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                    ascii.append(Unicode.Scalar(UInt8(value) + 0x30))
                }
            }
            #expect(
                TextFolding.phoneKey(phone) == TextFolding.phoneKey(String(ascii)),
                "seed \(seed): \(phone.debugDescription)")
        }
        #expect(TextFolding.phoneKey("+٤٤ ٢٠ ٧٩٤٦ ٠٩٥٨") == TextFolding.phoneKey("020 7946 0958"))
    }
}
