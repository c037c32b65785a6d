import CarnetTestSupport
import Testing

@testable import CarnetStore

/// The compact storage form of dates (`calendar|era|year|month|day|leap`), read on every date a page or a full sync
/// returns: it reads back what it wrote, and reads any text as the Character-based reading it replaced did.
@Suite("Dates' storage form")
struct ContactDateStorageTests {
    /// The reading before it went by bytes, kept as the oracle.
    static func characterReading(_ text: String) -> ContactDate? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 6, let month = Int(parts[3]), let day = Int(parts[4]) else { return nil }
        return ContactDate(
            calendar: String(parts[0]), era: Int(parts[1]), year: Int(parts[2]), month: month, day: day,
            isLeapMonth: parts[5] == "1")
    }

    @Test("Every date reads back as it was written")
    func roundTrip() {
        var random = SeededRandom(seed: 17)
        for _ in 0..<5_000 {
            let date = ContactDate(
                calendar: random.pick(["gregorian", "chinese", "hebrew", "islamicCivil"])!,
                era: random.chance(30) ? random.int(0...90) : nil,
                year: random.chance(70) ? random.int(-50...9999) : nil,
                month: random.int(1...13), day: random.int(1...31), isLeapMonth: random.chance(10))
            #expect(ContactDate(storageString: date.storageString) == date, "\(date.storageString)")
        }
    }

    @Test("Any text reads as the Character-based reading did")
    func sameAsBefore() {
        var random = SeededRandom(seed: 23)
        let pieces = [
            "|", "|", "|", "1", "12", "-3", "+4", "", "x", "é", "日", "gregorian", " ", "0", "99999999999999999999",
        ]
        for round in 0..<20_000 {
            let text = (0..<random.int(0...12)).map { _ in random.pick(pieces)! }.joined()
            #expect(ContactDate(storageString: text) == Self.characterReading(text), "round \(round): \(text)")
        }
    }
}
