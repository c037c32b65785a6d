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
        ])
    func split(name: String, parts: [String]) {
        let result = NameSplitting.split(name)
        #expect([result.prefix, result.given, result.middle, result.family, result.suffix] == parts)
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
