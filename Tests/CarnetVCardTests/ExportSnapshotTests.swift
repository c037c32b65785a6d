import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// An export reads one state of the book: page by page as saves committed, a card showed a save's membership
/// without that save's update of the contact (an outside tester's find).
@Suite("Export snapshot")
struct ExportSnapshotTests {
    /// Runs a save from a synchronous context (an export's output, on a background thread of its own): on another
    /// task, while this thread waits.
    static func execute(_ request: SaveRequest, on store: any ContactStore) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            try? await store.execute(request)
            done.signal()
        }
        done.wait()
    }

    @Test("A save committed during an export is in none of its pages")
    func savesDuringExport() async throws {
        let fixture = try ImportFixture()
        var request = SaveRequest(transactionAuthor: "test")
        request.add(Group(identifier: "g", name: "G"))
        for index in 0..<2_500 {
            var contact = Contact(identifier: "c\(index)")
            contact.familyName = "F\(index)"
            request.add(contact)
        }
        try await fixture.store.execute(request)
        // After the first page (of 1,000) is written, a save updates a contact of the last page and puts it in G.
        var save = SaveRequest(transactionAuthor: "test")
        var late = Contact(identifier: "c2400")
        late.familyName = "F2400"
        late.note = "saved during the export"
        save.update(late)
        save.addMember("c2400", toGroup: "g")
        let store = fixture.store
        let during = save
        // On a background thread: the output's wait must not block the cooperative pool, which the save needs.
        let exported = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await BackgroundExecutor.run {
                var text = ""
                var chunks = 0
                try await VCardExporter(store: store, version: .v3).export { chunk in
                    text += chunk
                    chunks += 1
                    guard chunks == 1 else { return }
                    Self.execute(during, on: store)
                }
                return text
            }
        }
        let text = exported
        #expect(try await store.contacts(withIdentifiers: ["c2400"], keysToFetch: [.note]).first?.note != "")
        let card = try #require(text.components(separatedBy: "END:VCARD").first { $0.contains("N:F2400;") })
        #expect(!card.contains("NOTE") && !card.contains("CATEGORIES"), "\(card)")
    }
}
