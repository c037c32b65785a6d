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
        // An empty CATEGORIES line says "in none" (an outside tester's find: it was read as no line at all).
        try await fixture.importText(Self.card(""))
        #expect(try await fixture.groupNames(of: "Kim").isEmpty)
    }

    /// An outside client's hostile card: a deduplication by list search made one card of 40,000 names cost 50 s of
    /// CPU, and one card of a 1 MiB request could make 200,000 groups.
    @Test("A card's CATEGORIES past the limit are kept whole as a vCard property, with a warning; up to it, groups")
    func tooManyCategories() async throws {
        let limit = StoreLimits.categoriesPerCard
        let fixture = try ImportFixture()
        let atLimit = (1...limit).map { "G\($0)" } + ["G1", "G2"]
        let summary = try await fixture.importText(Self.card(atLimit.joined(separator: ",")))
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(try await fixture.groupNames(of: "Kim").count == limit)
        // 50,000 names (a quadratic deduplication would take minutes here) on a card of its own.
        let hostile = (1...50_000).map { "H\($0)" }.joined(separator: ",")
        let card = Self.card(hostile).replacingOccurrences(of: "kim-lee", with: "ana-ruiz")
            .replacingOccurrences(of: "Lee;Kim", with: "Ruiz;Ana").replacingOccurrences(of: "Kim Lee", with: "Ana Ruiz")
        let refused = try await fixture.importText(card)
        #expect(refused.added == 1)
        #expect(refused.warnings.map(\.key) == ["CATEGORIES"], "\(refused.warnings)")
        #expect(try await fixture.groupNames(of: "Ana").isEmpty)
        #expect(try await fixture.store.groups().count == limit)
        // Nothing of the card is lost: its export carries the line again.
        let exported = try await fixture.export()
        #expect(exported.contains("H1,H2,H3") && exported.contains("H50000"))
    }
}
