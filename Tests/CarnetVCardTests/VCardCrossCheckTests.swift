import CarnetStore
import CarnetStoreSQLite
import CarnetVCard
import Foundation
import Testing

/// Writes an export of every kind of value, and what each card must say, for `scripts/vcard_crosscheck.py`:
/// CI has Python's vobject parse every card Carnet exports and compare. Here the same files are read back with
/// Carnet's reader, so the export is checked even where vobject is not installed.
@Suite("vCard export cross-check files")
struct VCardCrossCheckTests {
    static var directory: URL {
        URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["CARNET_VCARD_CROSSCHECK_DIR"]
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("carnet-vcard-crosscheck").path)
    }

    static func people() -> [Contact] {
        let rows: [(String, String, String, String)] = [
            ("José", "Núñez", "Acme, Inc.", "Line one\nLine \"two\"; three, four"),
            ("Zoë", "Ångström", "", ""), ("", "", "Globex Corporation", "Only an organization"),
            ("Mei", "陈", "Initech", ""),
            (
                "Łukasz", "O'Brien-Smith", "",
                "Ünïcödé ✓ and a long note that will need folding because it goes on and on past seventy-five octets"
            ),
        ]
        return rows.enumerated().map { index, row in
            var contact = Contact(contactType: row.0.isEmpty ? .organization : .person)
            contact.givenName = row.0
            contact.familyName = row.1
            contact.organizationName = row.2
            contact.note = row.3
            contact.emailAddresses = [
                LabeledValue(label: ContactLabel.home, value: "p\(index)@example.com"),
                LabeledValue(label: "Custom label", value: "p\(index).work@example.org"),
            ]
            contact.phoneNumbers = [LabeledValue(label: ContactLabel.phoneMobile, value: "+1 555 010 \(1000 + index)")]
            contact.urlAddresses =
                index % 2 == 0
                ? [LabeledValue(label: ContactLabel.urlHomePage, value: "https://example.com/\(index)")] : []
            contact.postalAddresses =
                index % 2 == 1
                ? [
                    LabeledValue(
                        label: ContactLabel.work,
                        value: PostalAddress(
                            street: "\(index) Main Street", city: "Springfield", state: "IL", postalCode: "62701",
                            country: "United States", isoCountryCode: "us"))
                ] : []
            contact.birthday =
                index == 0
                ? ContactDate(month: 3, day: 14) : (index == 1 ? ContactDate(year: 1980, month: 12, day: 31) : nil)
            return contact
        }
    }

    @Test("Export 3.0 and 4.0, with the values each card must carry")
    func writeCrossCheckFiles() async throws {
        let store = try SQLiteStore.inMemory()
        let people = Self.people()
        let friends = Group(name: "Friends")
        let work = Group(name: "Work")
        var request = SaveRequest()
        request.add(friends)
        request.add(work)
        for contact in people { request.add(contact) }
        request.addMember(people[0].identifier, toGroup: friends.identifier)
        request.addMember(people[0].identifier, toGroup: work.identifier)
        request.addMember(people[3].identifier, toGroup: friends.identifier)
        try await store.execute(request)
        let groupsOf = try await store.groups(ofContacts: people.map(\.identifier))

        try? FileManager.default.removeItem(at: Self.directory)
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        for (version, name) in [(VCardWriter.Version.v3, "export-3.0.vcf"), (.v4, "export-4.0.vcf")] {
            var text = ""
            let count = try await VCardExporter(store: store, version: version).export { text += $0 }
            #expect(count == people.count)
            for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(line)") }
            try Data(text.utf8).write(to: Self.directory.appendingPathComponent(name))
            // Carnet reads its own export back to the same values.
            let (read, issues) = try VCardReader().read(Data(text.utf8))
            #expect(issues.isEmpty, "\(issues)")
            // 4.0 starts with the group cards.
            let cards = read.filter { $0.kind == .contact }
            #expect(read.count - cards.count == (version == .v4 ? 2 : 0))
            for (card, original) in zip(cards, people) {
                #expect(card.contact.identifier == original.identifier)
                #expect(card.contact.givenName == original.givenName && card.contact.familyName == original.familyName)
                #expect(card.contact.note == original.note)
                #expect(card.contact.emailAddresses.map(\.value) == original.emailAddresses.map(\.value))
                #expect(card.contact.emailAddresses.map(\.label) == original.emailAddresses.map(\.label))
                #expect(card.contact.birthday == original.birthday)
                #expect(Set(card.categories) == Set((groupsOf[original.identifier] ?? []).map(\.name)))
            }
        }
        let expected: [[String: Any]] = people.map { contact in
            [
                "uid": contact.identifier, "givenName": contact.givenName, "familyName": contact.familyName,
                "emails": contact.emailAddresses.map(\.value), "phones": contact.phoneNumbers.map(\.value),
                "urls": contact.urlAddresses.map(\.value), "organization": contact.organizationName,
                "note": contact.note,
                "streets": contact.postalAddresses.map(\.value.street),
                "categories": (groupsOf[contact.identifier] ?? []).map(\.name),
            ]
        }
        try JSONSerialization.data(withJSONObject: expected).write(
            to: Self.directory.appendingPathComponent("expected.json"))
    }
}
