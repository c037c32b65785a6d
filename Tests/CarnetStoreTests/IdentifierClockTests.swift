import Foundation
import Testing

@testable import CarnetStore

/// Record identifiers: UUIDs in version 7's layout, in the order they were made, with random bits drawn ahead in
/// blocks (``SystemRandom``).
@Suite("Identifier clock")
struct IdentifierClockTests {
    @Test("Identifiers made in turn are valid version 7 UUIDs, ascending, with distinct random bits")
    func orderedAndRandom() throws {
        // Several blocks of drawn words, and across the milliseconds they take.
        let identifiers = (0..<2_000).map { _ in IdentifierClock.next() }
        #expect(identifiers == identifiers.sorted())
        #expect(Set(identifiers).count == identifiers.count)
        for identifier in identifiers {
            let uuid = try #require(UUID(uuidString: identifier))
            #expect(uuid.uuid.6 >> 4 == 7, "version of \(identifier)")
            #expect(uuid.uuid.8 >> 6 == 0b10, "variant of \(identifier)")
            #expect(Identifiers.isValid(identifier))
        }
        // The 62 random bits of each: a block handed out twice, or a block of zeros, would repeat them.
        let randomHalves = identifiers.map { $0.suffix(17) }
        #expect(Set(randomHalves).count == randomHalves.count)
        #expect(!randomHalves.contains("8000-000000000000"))
    }

    @Test("Blocks of system random words are filled whole and differ")
    func randomWords() {
        let first = SystemRandom.words(256)
        let second = SystemRandom.words(256)
        #expect(first.count == 256)
        #expect(first != second)
        // A block left partly unfilled would end in zeros.
        #expect(first.suffix(4).contains { $0 != 0 })
        #expect(Set(first).count == 256)
    }
}
