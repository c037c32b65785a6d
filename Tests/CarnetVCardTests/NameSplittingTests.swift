import Testing

@testable import CarnetVCard

/// Issue 15, point 7: FN without N is split into name parts as Apple Contacts splits a typed name.
@Suite("FN without N")
struct NameSplittingTests {
    @Test(
        arguments: [
            ("Madonna", ["", "Madonna", "", "", ""]),
            ("Anna Kowalska", ["", "Anna", "", "Kowalska", ""]),
            ("John Quincy Adams", ["", "John", "Quincy", "Adams", ""]),
            ("Dr. Martin Luther King Jr.", ["Dr.", "Martin", "Luther", "King", "Jr."]),
            ("Ludwig van Beethoven", ["", "Ludwig", "", "van Beethoven", ""]),
            ("Dr. María José van der Berg Jr.", ["Dr.", "María", "José", "van der Berg", "Jr."]),
            ("Smith, John", ["", "John", "", "Smith", ""]),
            ("John Smith, PhD", ["", "John", "", "Smith", "PhD"]),
            ("Prof. Dr. Ada Lovelace", ["Prof. Dr.", "Ada", "", "Lovelace", ""]),
            ("John Smith Jr., PhD", ["", "John", "", "Smith", "Jr. PhD"]), ("Dr. Jr.", ["", "Dr.", "", "", "Jr."]),
            ("Smith, Dr. Jr.", ["", "Dr.", "", "Smith", "Jr."]),
        ])
    func split(name: String, parts: [String]) {
        let result = NameSplitting.split(name)
        #expect([result.prefix, result.given, result.middle, result.family, result.suffix] == parts)
    }

    /// A hostile FN of 100,000 prefixes and as many suffixes (an import's line may hold 10 MiB): each came off the
    /// front of an array one shift at a time, quadratic in the words.
    @Test("Long runs of prefixes and suffixes come off in one pass, in order")
    func longRuns() {
        let count = 100_000
        let prefixes = (0..<count).map { $0 % 2 == 0 ? "Dr." : "Prof." }
        let suffixes = (0..<count).map { $0 % 2 == 0 ? "Jr." : "PhD" }
        let result = NameSplitting.split((prefixes + ["Ada", "Byron", "Lovelace"] + suffixes).joined(separator: " "))
        #expect(result.prefix == prefixes.joined(separator: " "))
        #expect([result.given, result.middle, result.family] == ["Ada", "Byron", "Lovelace"])
        #expect(result.suffix == suffixes.joined(separator: " "))
        let reversed = NameSplitting.split("Lovelace, " + (prefixes + ["Ada"] + suffixes).joined(separator: " "))
        #expect([reversed.prefix, reversed.given, reversed.family] == [result.prefix, "Ada", "Lovelace"])
        #expect(reversed.suffix == result.suffix)
    }

    @Test("Google's FN-only card")
    func fnOnlyCard() throws {
        let contact = try readOne(FidelityCorpus.fnOnly).contact
        #expect(
            [contact.namePrefix, contact.givenName, contact.middleName, contact.familyName, contact.nameSuffix] == [
                "Dr.", "María", "José", "van der Berg", "Jr.",
            ])
    }
}
