import CarnetStore
import CarnetTestSupport
import Testing

@testable import CarnetVCard

/// Kept vCard lines (`vCardProperties`) against the reader: a line the store's shape check
/// (``KeptVCardLine/isWellFormed(_:)``, ``KeptVCardLine/framesCard(_:)``) and the reader's check
/// (``VCardReader/keptLineProblem(_:)``) accept reads back from a card exactly as it was; a line they refuse would
/// not have. Lines are generated from the pieces a content line's structure is made of, combining marks among
/// them: checks by `Character` took `END :VCARD` or `X-A;P="x:y` for lines that read back (an outside tester's
/// find). The seed is printed on failure (`CARNET_TEST_SEED` replays it).
@Suite("Kept vCard lines")
struct KeptLineTests {
    static let names = ["X-A", "X-KEPT", "item2.X-B", "", "END", "item1.END", "BEGIN", " X-C", "x-d", "AGENT"]
    static let pieces = [
        ";", ":", "\"", "P=", "\u{301}", " ", "\t", "v", ",", "=", ".", "^'", "é", "\\", "TYPE=a,b", "END", "VCARD",
        ";ENCODING=QUOTED-PRINTABLE", "BEGIN:VCARD",
    ]

    @Test("A kept line the checks accept reads back as it was, and one they refuse would not")
    func acceptedIffReadsBack() throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        var accepted = 0
        for _ in 0..<3_000 {
            var line = random.pick(Self.names)!
            for _ in 0..<random.int(1...6) { line += random.pick(Self.pieces)! }
            let shapeAccepts = KeptVCardLine.isWellFormed(line) && !KeptVCardLine.framesCard(line)
            let accepts = shapeAccepts && VCardReader.keptLineProblem(line) == nil
            // An X- property is kept as written, never decoded: the store's shape check alone must decide it, as
            // it does for clients of the store that no GraphQL layer checks.
            let decided = KeptVCardLine.name(of: line).hasPrefix("X-") ? shapeAccepts : accepts
            for version in ["3.0", "4.0"] {
                // A line after it, which a quoted-printable soft break would take.
                let card =
                    "BEGIN:VCARD\r\nVERSION:\(version)\r\nN:;Kept;;;\r\nFN:Kept\r\n\(line)\r\nTITLE:after\r\nEND:VCARD\r\n"
                let read = try VCardReader().read(card)
                let readsBack =
                    read.issues.isEmpty && read.cards.count == 1 && read.cards[0].kind == .contact
                    && read.cards[0].unmappedProperties == [line] && read.cards[0].contact.givenName == "Kept"
                    && read.cards[0].contact.jobTitle == "after"
                #expect(
                    accepts == readsBack && decided == readsBack,
                    "seed \(seed): \(line.debugDescription) in \(version) is \(accepts ? "accepted" : "refused") but \(readsBack ? "reads" : "does not read") back"
                )
            }
            if accepts { accepted += 1 }
        }
        // Both outcomes are exercised, not one of them only.
        #expect(accepted > 300 && accepted < 2_700, "seed \(seed): \(accepted) accepted of 3,000")
    }

    /// A reviewer's find: a kept line whose control character in front was taken out started with a space, which
    /// the store refuses (it would fold onto the line before), and the whole card was skipped on import.
    @Test("A kept line cleaned of a control character in front keeps no white space there")
    func cleanedFront() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Kept;;;\r\n\u{1} X-A:b\r\n\u{85}\tX-B:c\r\nEND:VCARD\r\n"
        let read = try VCardReader().read(card)
        #expect(read.issues.isEmpty)
        let kept = read.cards.first?.unmappedProperties ?? []
        #expect(kept == ["X-A:b", "X-B:c"])
        #expect(kept.allSatisfy { KeptVCardLine.isWellFormed($0) })
    }

    /// A reviewer's find: a kept line whose head says QUOTED-PRINTABLE, folded just after an `=`, read back as a
    /// soft line break: the `=` went, and the fold's space stayed in the value.
    @Test("A quoted-printable kept line is never folded just after an =")
    func foldAfterEquals() throws {
        for padding in 40...48 {
            let line =
                "X-A;ENCODING=QUOTED-PRINTABLE:" + String(repeating: "a", count: padding) + "==" + "b" + "=c"
                + String(repeating: "d", count: 80)
            var contact = Contact(identifier: "fold-\(padding)")
            contact.givenName = "Fold"
            for version in [VCardWriter.Version.v3, .v4] {
                let text = VCardWriter(version: version).write(
                    contact, categories: [], unmappedProperties: [line], uid: nil)
                let physical = text.components(separatedBy: "\r\n")
                #expect(!physical.contains { $0.contains("QUOTED-PRINTABLE") && $0.hasSuffix("=") }, "\(padding)")
                #expect(physical.allSatisfy { $0.utf8.count <= 75 }, "\(padding)")
                let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
                #expect(unfolded.contains("\r\n" + line + "\r\n"), "\(padding) \(version)")
            }
        }
    }

    /// A run of `=` longer than a physical line, where every cut within 75 octets falls after an `=`: the line
    /// grows past 75 octets instead, and the value reads back unchanged.
    @Test("A quoted-printable kept line with a longer run of = than a line reads back unchanged")
    func longRunOfEquals() throws {
        for run in [73, 74, 75, 150, 300] {
            // Not "": a line ending in `=` is a soft break with nothing after it, which no export writes.
            for tail in ["b", "é" + String(repeating: "c", count: 90)] {
                let line = "X-A;ENCODING=QUOTED-PRINTABLE:a" + String(repeating: "=", count: run) + tail
                var contact = Contact(identifier: "run-\(run)")
                contact.givenName = "Run"
                for version in [VCardWriter.Version.v3, .v4] {
                    let text = VCardWriter(version: version).write(
                        contact, categories: [], unmappedProperties: [line], uid: nil)
                    let physical = text.components(separatedBy: "\r\n")
                    let start = try #require(physical.firstIndex { $0.hasPrefix("X-A;") })
                    var end = start
                    while physical[end + 1].hasPrefix(" ") { end += 1 }
                    #expect(!physical[start..<end].contains { $0.hasSuffix("=") }, "\(run) \(tail.count) \(version)")
                    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
                    #expect(unfolded.contains("\r\n" + line + "\r\n"), "\(run) \(tail.count) \(version)")
                }
            }
        }
    }
}
