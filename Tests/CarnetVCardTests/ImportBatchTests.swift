import CarnetStore
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetVCard

/// Batches are an import's own business: whatever the batch size, and strict or not, generated files with repeated
/// UIDs, group cards, CATEGORIES, relations forward and back, values kept aside and unreadable cards import to the
/// same contacts, groups, counts, skips and warnings (a strict import refuses a file with an unreadable card). The
/// seed is printed on failure.
@Suite("Import batches")
struct ImportBatchTests {
    @Test func batchSizesImportAlike() async throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for round in 0..<4 {
            let file = Self.file(cards: random.int(20...80), &random, unreadable: random.chance(50))
            var outcomes: [Outcome] = []
            for size in [1, 2, 7, 1000] {
                let fixture = try ImportFixture()
                let summary = try await fixture.importText(file, batchSize: size)
                outcomes.append(try await Outcome(summary, fixture))
            }
            // Reading the next batch on another thread while one is saved (the CLI's import) changes nothing.
            for size in [1, 7] {
                let fixture = try ImportFixture()
                let summary = try await fixture.importText(file, batchSize: size, readsAhead: true)
                outcomes.append(try await Outcome(summary, fixture))
            }
            // A strict import, planned in batches and committed once, leaves the same, or nothing when a card is
            // unreadable.
            for size in [2, 1000] {
                let fixture = try ImportFixture()
                if outcomes[0].skipped.isEmpty {
                    let summary = try await fixture.importText(file, strict: true, batchSize: size)
                    outcomes.append(try await Outcome(summary, fixture))
                } else {
                    await #expect(throws: VCardIssue.self, "seed \(seed) round \(round)") {
                        try await fixture.importText(file, strict: true, batchSize: size)
                    }
                    #expect(try await fixture.store.contactCount() == 0, "seed \(seed) round \(round)")
                }
            }
            let runs = ["2", "7", "1000", "1 reading ahead", "7 reading ahead", "2 strict", "1000 strict"]
            for (outcome, run) in zip(outcomes.dropFirst(), runs) {
                #expect(outcome == outcomes[0], "seed \(seed) round \(round), batch size \(run) against 1:\n\(file)")
            }
            #expect(outcomes[0].contacts.count > 0, "seed \(seed) round \(round)")
        }
    }

    /// Importing a file again changes nothing, whatever the batches: no card added or updated, no commit. (A file
    /// that repeats a UID with other values is left out: its second import writes the first card's values and then
    /// the later card's again.)
    @Test func reimportChangesNothing() async throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for round in 0..<4 {
            let file = Self.file(cards: random.int(20...80), &random, repeatingUIDs: false)
            for size in [1, 7, 1000] {
                let fixture = try ImportFixture()
                try await fixture.importText(file, batchSize: size)
                let before = try await fixture.store.currentHistoryToken()
                let summary = try await fixture.importText(file, batchSize: size)
                let context = "seed \(seed) round \(round), batch size \(size):\n\(file)"
                #expect(summary.added == 0 && summary.updated == 0 && summary.groupsCreated == 0, "\(context)")
                #expect(try await fixture.store.currentHistoryToken() == before, "\(context)")
            }
        }
    }

    /// What an import leaves, exported (3.0 and 4.0, each group style) and imported into a new store, comes back
    /// the same: names, emails, relations and groups. (Group cards of one name with two UIDs are two groups, and
    /// CATEGORIES alone name both as one: a contact in both comes back in one.)
    @Test func exportReadsBack() async throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for round in 0..<2 {
            let file = Self.file(cards: random.int(20...80), &random)
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(file)
            for version in [VCardWriter.Version.v3, .v4] {
                for style in VCardExporter.GroupStyle.allCases {
                    let byName = style == .categories
                    let original = try await Outcome(summary, fixture, groupNamesOnce: byName)
                    let exported = try await fixture.export(version, groups: style)
                    let copy = try ImportFixture()
                    let readBack = try await Outcome(try await copy.importText(exported), copy, groupNamesOnce: byName)
                    #expect(
                        readBack.contacts == original.contacts,
                        "seed \(seed) round \(round), \(version) \(style):\n\(file)\n\nexported:\n\(exported)")
                }
            }
        }
    }

    /// What an import did and left, without the identifiers it chose.
    struct Outcome: Equatable {
        var counts: [Int]
        var skipped: [Int]
        var warnings: [String]
        var contacts: [String]

        /// - Parameter groupNamesOnce: Each contact's group names without repeats (as CATEGORIES write them).
        init(_ summary: VCardImporter.Summary, _ fixture: ImportFixture, groupNamesOnce: Bool = false) async throws {
            // A card repeated after a forward RELATED is "updated" when the earlier card's relation was left for
            // the end (another batch), "unchanged" when it was resolved in the same batch: same contacts either way.
            counts = [summary.added, summary.updated + summary.unchanged, summary.groupsCreated, summary.groupCards]
            skipped = summary.skipped.map(\.line)
            warnings = summary.warnings.map { "\($0.line) \($0.key)" }
            let stored = try await fixture.contacts()
            let groups = try await fixture.store.groups(ofContacts: stored.map(\.identifier))
            contacts = stored.map { contact in
                let all = (groups[contact.identifier] ?? []).map(\.name)
                let names = (groupNamesOnce ? ExactText.distinct(all) : all).sorted()
                return "\(contact.givenName) \(contact.familyName) \(contact.emailAddresses.map(\.value)) "
                    + "\(contact.contactRelations.map(\.value.name)) \(names)"
            }
            .sorted()
        }
    }

    /// Cards of every kind the importer treats differently, in random order.
    static func file(
        cards count: Int, _ random: inout SeededRandom, repeatingUIDs: Bool = true, unreadable: Bool = false
    ) -> String {
        var text = ""
        var last = ""
        for index in 0..<count {
            // Without repeats, a contact card's UID is its own; references still name any.
            let uid = repeatingUIDs ? "u\(random.int(0...count / 2))" : "u\(index)"
            switch random.int(1...11) {
            case 4 where !last.isEmpty:
                // The same card again, with or without a UID: the second changes nothing.
                text += last
            case 1:
                let members = (0..<random.int(0...3)).map { _ in "MEMBER:urn:uuid:u\(random.int(0...count / 2))\r\n" }
                text +=
                    "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:g\(random.int(0...3))\r\n"
                    + "FN:Team \(random.int(0...3))\r\n\(members.joined())END:VCARD\r\n"
            case 2:
                // No name at all, and a birthday that is no date: kept aside as a vCard property.
                text += "BEGIN:VCARD\r\nVERSION:3.0\r\nBDAY:not a date\r\nEND:VCARD\r\n"
            case 5 where unreadable:
                // Unreadable (quoted-printable that is not): skipped, or a strict import refused.
                text += "BEGIN:VCARD\r\nVERSION:2.1\r\nUID:\(uid)\r\nN;ENCODING=QUOTED-PRINTABLE:=ZZ\r\nEND:VCARD\r\n"
            case 3:
                // A birthday that does not exist: kept aside.
                text +=
                    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:Refused;P\(index);;;\r\nBDAY:2023-02-30\r\n"
                    + "END:VCARD\r\n"
            default:
                var card = "BEGIN:VCARD\r\nVERSION:3.0\r\n"
                if random.chance(80) { card += "UID:\(uid)\r\n" }
                card += "N:Family\(random.int(0...5));P\(index);;;\r\nFN:P\(index)\r\n"
                card += "EMAIL:p\(index)@example.com\r\n"
                if random.chance(50) { card += "CATEGORIES:\(["A", "B", "C"][random.int(0...2)])\r\n" }
                if random.chance(30) { card += "RELATED;TYPE=friend:urn:uuid:u\(random.int(0...count / 2))\r\n" }
                last = card + "END:VCARD\r\n"
                text += last
            }
        }
        return text
    }
}
