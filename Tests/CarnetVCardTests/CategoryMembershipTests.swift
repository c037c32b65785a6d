import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 7: a re-imported card's groups become what its CATEGORIES say.
@Suite("CATEGORIES on re-import")
struct CategoryMembershipTests {
    static func card(_ categories: String?) -> String {
        """
        BEGIN:VCARD
        VERSION:3.0
        N:Lee;Kim;;;
        FN:Kim Lee
        \(categories.map { "CATEGORIES:\($0)\n" } ?? "")UID:kim-lee
        END:VCARD

        """
    }

    @Test("Dropping a CATEGORIES entry leaves that group; a card without CATEGORIES leaves its groups alone")
    func droppedEntry() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(Self.card("Family,Work,Chess"))
        #expect(try await fixture.groupNames(of: "Kim") == ["Chess", "Family", "Work"])
        let summary = try await fixture.importText(Self.card("Family,Chess"))
        #expect(summary.unchanged == 1)
        #expect(try await fixture.groupNames(of: "Kim") == ["Chess", "Family"])
        try await fixture.importText(Self.card(nil))
        #expect(try await fixture.groupNames(of: "Kim") == ["Chess", "Family"])
        // The group itself stays, empty.
        #expect(try await fixture.store.groups().map(\.name) == ["Chess", "Family", "Work"])
    }
}
