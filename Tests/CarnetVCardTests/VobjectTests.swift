import CarnetStore
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetVCard

/// An independent reader of Carnet's exports: Python's vobject (tests/clients/vcard_vobject.py) reads every card
/// of the corpus exported in 3.0 and 4.0, each group style, and must find the values Carnet wrote. Skipped where
/// vobject is missing, unless CARNET_REQUIRE_PYTHON_CLIENTS=1 (CI) makes it required.
enum Vobject {
    /// Whether python3 with vobject is here; required (never skipped) when CI says so.
    static var available: Bool { ChildProcess.pythonHas("vobject") }
}

@Suite("vobject reads Carnet's exports", .enabled(if: Vobject.available, "pip install vobject"))
struct VobjectTests {
    @Test("Every exported card, every version and group style, read with the same values")
    func everyExport() async throws {
        let fixture = try ImportFixture()
        for (_, data) in ByteStabilityTests.files { try await fixture.importData(data) }
        let directory = fixture.directory.appendingPathComponent("vobject")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let exports: [(String, VCardWriter.Version, VCardExporter.GroupStyle)] = [
            ("export-3.0-categories", .v3, .categories), ("export-3.0-cards", .v3, .cards),
            ("export-4.0-both", .v4, .both),
        ]
        for (name, version, style) in exports {
            let text = try await fixture.export(version, groups: style)
            try Data(text.utf8).write(to: directory.appendingPathComponent(name + ".vcf"))
            let cards = try VCardReader().read(text).cards
            let expected = try JSONSerialization.data(withJSONObject: cards.map(Self.expected), options: [.sortedKeys])
            try expected.write(to: directory.appendingPathComponent(name + ".json"))
        }
        let script = ChildProcess.repositoryRoot.appendingPathComponent("tests/clients/vcard_vobject.py")
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, directory.path], timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    }

    /// What a card says, as Carnet reads it: the mapped values, then the values of kept lines of the same
    /// properties (written after them), as vobject will list them.
    static func expected(_ card: VCardCard) -> [String: Any] {
        guard card.kind == .contact else {
            let uids = card.memberUIDs.map { UIDReference.uri($0, isTaken: { _ in true }) }
            return ["kind": "group", "uid": card.uid ?? "", "fn": card.groupName, "members": uids]
        }
        let c = card.contact
        func kept(_ name: String) -> [String] {
            card.unmappedProperties.compactMap { line in
                let head = line.prefix { $0 != ":" }
                let property = head.prefix { $0 != ";" }.split(separator: ".").last.map(String.init) ?? ""
                guard property.uppercased() == name, let colon = line.firstIndex(of: ":") else { return nil }
                return unescaped(line[line.index(after: colon)...])
            }
        }
        return [
            "kind": "contact", "uid": card.uid ?? "", "fn": DisplayName.of(c),
            "n": [c.familyName, c.givenName, c.middleName, c.namePrefix, c.nameSuffix],
            "emails": c.emailAddresses.map(\.value) + kept("EMAIL"), "tels": c.phoneNumbers.map(\.value) + kept("TEL"),
            "urls": c.urlAddresses.map(\.value) + kept("URL"),
            "org": [c.organizationName, c.departmentName].filter { !$0.isEmpty },
            "note": c.note.isEmpty ? (kept("NOTE").first ?? "") : c.note,
            "streets": c.postalAddresses.map(\.value.street), "cities": c.postalAddresses.map(\.value.city),
            "categories": card.categories, "relations": c.contactRelations.map(\.value.name),
            "kept": card.unmappedProperties.map { line in
                String(line.prefix { $0 != ":" && $0 != ";" }.split(separator: ".").last ?? "")
            },
        ]
    }

    /// A text value's backslash escapes resolved, as vobject resolves them.
    static func unescaped(_ text: Substring) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
