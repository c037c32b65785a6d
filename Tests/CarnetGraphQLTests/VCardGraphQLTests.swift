import CarnetStore
import CarnetVCard
import Testing

@testable import CarnetGraphQL

@Suite("vCard over GraphQL")
struct VCardGraphQLTests {
    static let cards = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:card-anna\r
        N:Smith;Anna;;;\r
        FN:Anna Smith\r
        EMAIL;type=INTERNET;type=HOME:anna@example.com\r
        CATEGORIES:Friends\r
        X-CUSTOM-THING:kept\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Broken;Card;;;\r
        EMAIL:\(String(repeating: "x", count: 400))@example.com\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:urn:uuid:not/a carnet id\r
        FN:Bob Jones\r
        N:Jones;Bob;;;\r
        TEL;TYPE=cell:+1 555 0100\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:2.1\r
        N;ENCODING=QUOTED-PRINTABLE:=ZZ\r
        END:VCARD\r

        """

    static let mutation = """
        mutation($data: String!, $author: String) {
          importVCards(data: $data, transactionAuthor: $author) {
            added updated unchanged groupsCreated groupCards historyToken
            skipped { line cardLine message } warnings { line cardLine key message }
          }
        }
        """

    /// `data` is a string, so its text is decoded already: CHARSET was applied to its UTF-8 and `Müller` was
    /// stored as "MÃ¼ller" (an outside vCard fuzzer). A quoted-printable value is bytes again, in its CHARSET.
    @Test("importVCards reads plain values as the text they are, whatever their CHARSET; encoded ones in it")
    func charsetOfText() async throws {
        let fixture = try GraphQLFixture()
        let card = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N;CHARSET=ISO-8859-1:Müller;Anna;;;\r
            NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Gr=FC=DFe\r
            END:VCARD\r

            """
        let result = try await fixture.data(Self.mutation, ["data": .string(card)])
        #expect(result["importVCards"]?["added"] == 1)
        let read = try await fixture.data("{ contacts { nodes { familyName note } } }")
        #expect(read["contacts"]?["nodes"]?.json == #"[{"familyName":"Müller","note":"Grüße"}]"#)
    }

    @Test(
        "importVCards adds cards, keeps an over-long email with a warning, skips an unreadable card with its lines, and a second import changes nothing"
    )
    func importAndReimport() async throws {
        let fixture = try GraphQLFixture()
        let before = try await fixture.store.currentHistoryToken()
        let first = try await fixture.data(Self.mutation, ["data": .string(Self.cards), "author": "vcard-test"])
        let result = try #require(first["importVCards"])
        #expect(result["added"] == 3)
        #expect(result["groupsCreated"] == 1)
        #expect(result["groupCards"] == 0)
        #expect(result["skipped"]?.arrayValue?.count == 1)
        #expect(result["skipped"]?[0]?["line"] == 24)
        #expect(result["skipped"]?[0]?["cardLine"] == 22)
        #expect(result["skipped"]?[0]?["message"]?.stringValue?.contains("quoted-printable") == true)
        #expect(result["warnings"]?.arrayValue?.count == 1)
        #expect(result["warnings"]?[0]?["line"] == 13)
        #expect(result["warnings"]?[0]?["cardLine"] == 10)
        #expect(result["warnings"]?[0]?["key"] == "emailAddresses[0].value")
        let second = try await fixture.data(Self.mutation, ["data": .string(Self.cards)])
        #expect(second["importVCards"]?["added"] == 0)
        #expect(second["importVCards"]?["unchanged"] == 3)
        #expect(try await fixture.store.contactCount() == 3)
        let history = try await fixture.data(
            """
            query($since: String) { changeHistory(since: $since, includeGroupChanges: true) { events { __typename author } } }
            """, ["since": .string(before)])
        let authors = history["changeHistory"]?["events"]?.arrayValue?.compactMap { $0["author"]?.stringValue } ?? []
        #expect(Set(authors) == ["vcard-test"])
    }

    @Test("Contact.vCard writes the card with its groups and kept properties, in 3.0 or 4.0")
    func contactVCard() async throws {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(Self.mutation, ["data": .string(Self.cards)])
        let data = try await fixture.data(
            #"{ contact(id: "card-anna") { v3: vCard v4: vCard(version: V4_0) vCardProperties } }"#)
        let v3 = data["contact"]?["v3"]?.stringValue ?? ""
        let v4 = data["contact"]?["v4"]?.stringValue ?? ""
        #expect(v3.contains("VERSION:3.0") && v3.contains("UID:card-anna") && v3.contains("CATEGORIES:Friends"))
        #expect(v3.contains("X-CUSTOM-THING:kept"))
        #expect(v4.contains("VERSION:4.0") && v4.contains("anna@example.com"))
        #expect(data["contact"]?["vCardProperties"]?.json == #"["X-CUSTOM-THING:kept"]"#)
    }

    /// An outside tester's find: a save kept lines that its export wrote and a re-import could not read back (an
    /// open quote, a quoted-printable soft break, an embedded AGENT card), that ended the card (`item1.END`,
    /// `END :VCARD`, a leading space that folds), or that lost the card when read (a PHOTO that is no base64) or
    /// made it a group's (`KIND:group`): the contact was lost on re-import. Lines of the first kinds are refused,
    /// with the operation and the line's key path, and nothing written; the last kind the export leaves out (the
    /// importer keeps such lines where they read back, and a client may send a contact's lines back as they were).
    @Test("Kept vCard lines: save refuses those no card can hold, and the export leaves out those that would lose it")
    func keptLinesThatReadBack() async throws {
        let fixture = try GraphQLFixture()
        let save = """
            mutation($lines: [String!]) { save(request: {operations: [{addContact: {givenName: "Ok"}},
              {addContact: {givenName: "Kept", vCardProperties: $lines}}]}) { contacts { id vCardProperties } } }
            """
        let refused = [
            #"X-A;P="x:y"#, "item1.END:VCARD", "END :VCARD", " END:VCARD", "X-A;P=\"\u{301}:v",
            "X-B;ENCODING=QUOTED-PRINTABLE:a=", "AGENT:BEGIN:VCARD",
        ]
        for line in refused {
            let answer = try await fixture.run(save, ["lines": .array([.string("X-FINE:1"), .string(line)])])
            let extensions = answer["errors"]?[0]?["extensions"]
            #expect(extensions?["code"] == "VALIDATION_FAILED", "\(line.debugDescription): \(answer.json)")
            #expect(extensions?["operationIndex"] == 1, "\(line.debugDescription)")
            #expect(extensions?["keyPaths"]?.json == #"["vCardProperties[1].value"]"#, "\(line.debugDescription)")
        }
        #expect(try await fixture.store.contactCount() == 0)
        let kept = ["X-A:\u{301}x", "X-A;P=\"a;\u{301}b\":v", "BDAY:circa 1800", "X-B;TYPE=\u{301}:y"]
        let leftOut = ["PHOTO;ENCODING=b:!!!", "KIND:group"]
        let answer = try await fixture.data(save, ["lines": .array((kept + leftOut).map { .string($0) })])
        let id = try #require(answer["save"]?["contacts"]?[1]?["id"]?.stringValue)
        #expect(answer["save"]?["contacts"]?[1]?["vCardProperties"] == .array((kept + leftOut).map { .string($0) }))
        // The contact's own export reads back as one contact with the lines that read back.
        for version in ["V3_0", "V4_0"] {
            let card = try await fixture.data(
                "query($id: ID!) { contact(id: $id) { vCard(version: \(version)) } }", ["id": .string(id)])
            let read = try VCardReader().read(card["contact"]?["vCard"]?.stringValue ?? "")
            #expect(read.issues.isEmpty && read.cards.count == 1 && read.cards.first?.kind == .contact, "\(version)")
            #expect(read.cards.first?.unmappedProperties.filter { !$0.hasPrefix("UID:") } == kept, "\(version)")
        }
    }

    /// An outside tester's find: an author no save could have made a lenient import skip every card, one by one,
    /// with the same reason, instead of saying once what was wrong.
    @Test("A lenient import with an invalid author or an unknown container fails as a whole and writes nothing")
    func lenientImportBadArguments() async throws {
        let fixture = try GraphQLFixture()
        let before = try await fixture.store.currentHistoryToken()
        let badAuthor = try await fixture.run(
            Self.mutation, ["data": .string(Self.cards), "author": .string(String(repeating: "a", count: 5000))])
        #expect(badAuthor["errors"]?[0]?["extensions"]?["code"] == "VALIDATION_FAILED")
        #expect(badAuthor["errors"]?[0]?["extensions"]?["keyPaths"]?.json == #"["transactionAuthor"]"#)
        let elsewhere = try await fixture.run(
            #"mutation($data: String!) { importVCards(data: $data, containerId: "no-such-container") { added } }"#,
            ["data": .string(Self.cards)])
        #expect(elsewhere["errors"]?[0]?["extensions"]?["code"] == "RECORD_DOES_NOT_EXIST")
        #expect(try await fixture.store.contactCount() == 0)
        #expect(try await fixture.store.currentHistoryToken() == before)
    }

    @Test("Strict import refuses the whole text with VCARD_MALFORMED or VALIDATION_FAILED and writes nothing")
    func strictImport() async throws {
        let fixture = try GraphQLFixture()
        let response = try await fixture.run(
            """
            mutation($data: String!) { importVCards(data: $data, strict: true) { added } }
            """, ["data": .string(Self.cards)])
        let code = response["errors"]?[0]?["extensions"]?["code"]?.stringValue
        #expect(code == "VCARD_MALFORMED")
        #expect(response["errors"]?[0]?["extensions"]?["line"] == 24)
        #expect(try await fixture.store.contactCount() == 0)
    }

    @Test(
        "Strict import: a card the store refuses (past the book's quota) fails with the store's code and writes nothing"
    )
    func strictImportStoreRefusal() async throws {
        let good = Self.cards.components(separatedBy: "BEGIN:VCARD\r\nVERSION:2.1")[0]
        let count = good.components(separatedBy: "BEGIN:VCARD").count - 1
        let fixture = try GraphQLFixture { $0.contactsPerBook = count }
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:One Too Many\r\nCATEGORIES:Dup\r\nEND:VCARD\r\n"
        let response = try await fixture.run(
            """
            mutation($data: String!) { importVCards(data: $data, strict: true) { added } }
            """, ["data": .string(good + card)])
        let code = response["errors"]?[0]?["extensions"]?["code"]?.stringValue
        #expect(code == "QUOTA_EXCEEDED")
        #expect(try await fixture.store.contactCount() == 0)
        #expect(try await fixture.store.groups().isEmpty)
    }

    @Test("importVCards: a 4.0 group card and a RELATED UID, both naming a card later in the text")
    func groupCardAndRelated() async throws {
        let fixture = try GraphQLFixture()
        let text = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Climbing\r
            MEMBER:urn:uuid:gq-marta\r
            UID:gq-climbing\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Tomasz Nowak\r
            RELATED;TYPE=spouse:urn:uuid:gq-marta\r
            UID:gq-tomasz\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Marta Nowak\r
            UID:gq-marta\r
            END:VCARD\r

            """
        let result = try await fixture.data(Self.mutation, ["data": .string(text)])
        #expect(result["importVCards"]?["added"] == 2)
        #expect(result["importVCards"]?["groupCards"] == 1)
        let data = try await fixture.data(
            #"{ group(id: "gq-climbing") { name members(first: 5) { id } } contact(id: "gq-tomasz") { familyName contactRelations { label value { name } } } }"#
        )
        #expect(data["group"]?["name"] == "Climbing")
        #expect(data["group"]?["members"]?[0]?["id"] == "gq-marta")
        #expect(data["contact"]?["familyName"] == "Nowak")
        #expect(data["contact"]?["contactRelations"]?[0]?["value"]?["name"] == "Marta Nowak")
    }
}
