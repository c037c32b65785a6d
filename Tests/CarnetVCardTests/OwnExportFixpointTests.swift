import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Lines an outside vCard fuzzer found whose export read back differently, so that importing one's own export
/// changed the contact again: each case imports a card, imports its export (unchanged), and checks the value.
@Suite("Importing one's own export changes nothing: URIs, services, control characters, stray BEGIN/END")
struct OwnExportFixpointTests {
    /// Imports `card`, then its export in `version`; returns the contact and the second import's summary.
    func importTwice(_ card: String, _ version: VCardWriter.Version = .v3) async throws
        -> (contact: Contact, first: VCardImporter.Summary, again: VCardImporter.Summary)
    {
        let fixture = try ImportFixture()
        let first = try await fixture.importText(card)
        let exported = try await fixture.export(version)
        let again = try await fixture.importText(exported)
        let contact = try #require(try await fixture.contacts().first)
        return (contact, first, again)
    }

    @Test("A URL's backslashes stay: export writes URIs unescaped, so a 3.0 reader must not read \\n in them")
    func urlBackslashes() async throws {
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jo\r\nURL:file:///C:\\new\\notes,v2\r\nEND:VCARD\r\n"
        for version in [VCardWriter.Version.v3, .v4] {
            let (contact, _, again) = try await importTwice(card, version)
            #expect(contact.urlAddresses.map(\.value) == [#"file:///C:\new\notes,v2"#], "\(version)")
            #expect(again.updated == 0 && again.unchanged == 1, "\(version)")
        }
        // Apple's escaped colon still reads as a colon.
        let apple = try await importTwice(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nitem1.URL:https\\://example.com/a\\,b\r\nEND:VCARD\r\n")
        #expect(apple.contact.urlAddresses.map(\.value) == ["https://example.com/a,b"])
        #expect(apple.again.unchanged == 1)
    }

    /// White space around a value was trimmed on import, so a contact saved with it (which its export writes) changed
    /// when its own export was imported (an outside tester's find).
    @Test("White space around a value is kept as written; a value of white space alone is none")
    func surroundingWhiteSpace() async throws {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN: padded ;S;;;\r\nNOTE:ends with space \r\nTITLE:   \r\nEND:VCARD\r\n"
        for version in [VCardWriter.Version.v3, .v4] {
            let (contact, _, again) = try await importTwice(card, version)
            #expect(contact.familyName == " padded " && contact.givenName == "S", "\(version)")
            #expect(contact.note == "ends with space ", "\(version)")
            #expect(contact.jobTitle.isEmpty, "\(version)")
            #expect(again.updated == 0 && again.unchanged == 1, "\(version)")
        }
    }

    /// A note or street saved with CR LF or a lone CR (through GraphQL) is exported with vCard's one line break,
    /// and read back as LF: the re-import updated the contact and gave its address a new identifier (an outside
    /// tester's find). Such text stays as stored.
    @Test("A note and a street saved with CR LF and lone CRs re-import unchanged, identifiers kept")
    func carriageReturns() async throws {
        for version in [VCardWriter.Version.v3, .v4] {
            let fixture = try ImportFixture()
            var contact = Contact()
            contact.familyName = "Lines"
            contact.note = "a\r\nb\rc\nd"
            contact.postalAddresses = [LabeledValue(label: "home", value: PostalAddress(street: "s1\r\ns2", city: "X"))]
            try await fixture.store.execute(SaveRequest(operations: [.addContact(contact, containerIdentifier: nil)]))
            let before = try #require(try await fixture.contacts().first)
            let again = try await fixture.importText(try await fixture.export(version))
            #expect(again.unchanged == 1 && again.updated == 0, "\(version): \(again)")
            let after = try #require(try await fixture.contacts().first)
            #expect(after.note == "a\r\nb\rc\nd" && after.postalAddresses.map(\.value.street) == ["s1\r\ns2"])
            #expect(after.postalAddresses.map(\.identifier) == before.postalAddresses.map(\.identifier))
        }
        // A card that does change a line of it is still an update.
        let fixture = try ImportFixture()
        var contact = Contact()
        contact.familyName = "Lines"
        contact.note = "a\r\nb"
        try await fixture.store.execute(SaveRequest(operations: [.addContact(contact, containerIdentifier: nil)]))
        let exported = try await fixture.export(.v3).replacingOccurrences(of: "NOTE:a\\nb", with: "NOTE:a\\nc")
        #expect(try await fixture.importText(exported).updated == 1)
    }

    /// Foundation's percent decoding dropped a leading U+FEFF, so an IM username starting with one lost it when one's
    /// own export (which escapes "<" and spaces) was read back (an outside tester's find).
    @Test("Percent escapes decode byte for byte: a leading U+FEFF stays; malformed or non-UTF-8 ones stay as written")
    func percentDecoding() async throws {
        #expect(Array(CardDecoder.percentDecoded("\u{FEFF}%3Ca").unicodeScalars) == ["\u{FEFF}", "<", "a"])
        #expect(CardDecoder.percentDecoded("a%20b%c3%A9") == "a bé")
        for kept in ["100%", "%zz", "%4", "%FF%FE"] { #expect(CardDecoder.percentDecoded(kept) == kept) }
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nIMPP:x-apple:\u{FEFF}%3Ca\r\nEND:VCARD\r\n"
        let (contact, _, again) = try await importTwice(card)
        #expect(
            contact.instantMessageAddresses.map { Array($0.value.username.unicodeScalars) } == [["\u{FEFF}", "<", "a"]])
        #expect(again.unchanged == 1 && again.updated == 0, "\(again)")
    }

    /// Control characters were taken out of mapped values with no word (an outside tester's find).
    @Test("Control characters taken out of a mapped value are reported in a warning for its line")
    func controlCharactersInValues() async throws {
        let fixture = try ImportFixture()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:x\u{0}y;g\u{7F}h;;;\r\nNOTE:n\u{2}o\r\nTITLE:Boss\r\nEND:VCARD\r\n"
        let summary = try await fixture.importText(card)
        #expect(summary.added == 1)
        #expect(Set(summary.warnings.map(\.line)) == [3, 4], "\(summary.warnings)")
        #expect(summary.warnings.allSatisfy { $0.message.contains("control characters") })
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.note == "no" && contact.jobTitle == "Boss")
        // Removed, not made a space (another tester's find): only a tab or a line break separates words.
        #expect(contact.familyName == "xy" && contact.givenName == "gh")
    }

    /// An outside tester's find: a tab in a one-line value became a space without a word.
    @Test("A tab in a one-line value becomes a space with a warning; NOTE and ADR's street keep theirs silently")
    func tabsInValues() async throws {
        let fixture = try ImportFixture()
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Doe;Jo;;;\r
            ORG:Acme\tInc\r
            NOTE:a\tb\r
            ADR;TYPE=HOME:;;1\tMain St;Town;;;\r
            ADR;TYPE=WORK:;;2 High St;New\tTown;;;\r
            END:VCARD\r

            """
        let summary = try await fixture.importText(card)
        #expect(summary.added == 1)
        #expect(Set(summary.warnings.map(\.line)) == [4, 7], "\(summary.warnings)")
        #expect(summary.warnings.allSatisfy { $0.message.contains("tab") })
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.organizationName == "Acme Inc" && contact.note == "a\tb")
        #expect(contact.postalAddresses.map(\.value.street) == ["1\tMain St", "2 High St"])
        #expect(contact.postalAddresses.map(\.value.city) == ["Town", "New Town"])
    }

    /// An outside tester's find: an escaped line break in a one-line value became a space without a word.
    @Test("An escaped line break in a one-line value becomes a space with a warning; NOTE and ADR's street keep theirs")
    func lineBreaksInValues() async throws {
        let fixture = try ImportFixture()
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Fam;Giv\\nen;;;\r
            ORG:Acme\\NLtd;Dep\r
            TITLE:Not\\\\nBroken\r
            NOTE:a\\nb\r
            ADR;TYPE=HOME:;;1 Main St\\nFlat 2;Town;;;\r
            ADR;TYPE=WORK:;;2 High St;New\\nTown;;;\r
            END:VCARD\r

            """
        let summary = try await fixture.importText(card)
        #expect(summary.added == 1)
        #expect(Set(summary.warnings.map(\.line)) == [3, 4, 8], "\(summary.warnings)")
        #expect(summary.warnings.allSatisfy { $0.message.contains("line break") })
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.givenName == "Giv en" && contact.organizationName == "Acme Ltd")
        #expect(contact.jobTitle == "Not\\nBroken" && contact.note == "a\nb")
        #expect(contact.postalAddresses.map(\.value.street) == ["1 Main St\nFlat 2", "2 High St"])
        #expect(contact.postalAddresses.map(\.value.city) == ["Town", "New Town"])
    }

    @Test("A card with a UID over the indexed length updates its contact on every import, and so does its export")
    func longUID() async throws {
        let uid = String(repeating: "x", count: 1_100)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:Doe;Jo;;;\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        #expect(try await fixture.importText(card).added == 1)
        let again = try await fixture.importText(card, strict: true)
        #expect(again.added == 0 && again.unchanged == 1)
        let exported = try await fixture.export(.v4)
        #expect(exported.contains(String(uid.prefix(60))))
        #expect(try await fixture.importText(exported).added == 0)
        #expect(try await fixture.contacts().count == 1)
    }

    /// An outside tester's find: a URL holding a backslash before `,` `;` or `:` lost it when its own export was
    /// imported (the reader takes those pairs for escapes, and the writer wrote URIs raw).
    @Test("URLs and social profile URLs with a backslash before , ; : or \\ read back from their export as they were")
    func urlBackslashPairs() async throws {
        let urls = [
            #"https://x.test/a\,b"#, #"https://x.test/a\;b"#, #"https://x.test/a\:b"#, #"file:\\srv\share"#, #"x\"#,
        ]
        for version in [VCardWriter.Version.v3, .v4] {
            let fixture = try ImportFixture()
            var contact = Contact()
            contact.givenName = "Jo"
            contact.urlAddresses = urls.map { LabeledValue(label: "home", value: $0) }
            contact.socialProfiles = [
                LabeledValue(label: nil, value: SocialProfile(urlString: #"https://social.test/u\,1"#, service: "Acme"))
            ]
            var request = SaveRequest()
            request.add(contact)
            try await fixture.store.execute(request)
            let again = try await fixture.importText(try await fixture.export(version))
            #expect(again.unchanged == 1 && again.updated == 0, "\(version)")
            let read = try #require(try await fixture.contacts().first)
            #expect(read.urlAddresses.map(\.value) == urls, "\(version)")
            #expect(read.socialProfiles.map(\.value.urlString) == [#"https://social.test/u\,1"#], "\(version)")
            #expect(read.vCardProperties.isEmpty, "\(version): \(read.vCardProperties)")
        }
    }

    /// An outside tester's find: an empty TITLE (or ORG, N, FN) before one with a value left the key empty and kept
    /// the second line aside; its export wrote only that line, which the next import mapped: a change.
    @Test(
        "An empty TITLE, ORG, N or FN before one with a value takes no place: the value maps, and its export reads back"
    )
    func emptyFirstSingleValue() async throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:\r
            FN:Jo Doe\r
            N:;;;;\r
            N:Doe;Jo;;;\r
            TITLE:\r
            TITLE:Engineer\r
            ORG:;\r
            ORG:Acme;Dept\r
            END:VCARD\r

            """
        for version in [VCardWriter.Version.v3, .v4] {
            let (contact, first, again) = try await importTwice(card, version)
            #expect(first.added == 1)
            #expect(contact.jobTitle == "Engineer" && contact.organizationName == "Acme", "\(version)")
            #expect(contact.departmentName == "Dept" && contact.familyName == "Doe", "\(version)")
            #expect(contact.vCardProperties.isEmpty, "\(version): \(contact.vCardProperties)")
            #expect(again.unchanged == 1 && again.updated == 0, "\(version)")
        }
    }

    /// An outside tester's find: a blank ADR with something beyond its value was kept, then left out of the
    /// export as a stale form of an address, so importing the export lost it.
    @Test("A blank ADR with parameters or extra components is kept, exported and read back unchanged")
    func blankAddressWithExtras() async throws {
        for line in ["ADR;LABEL=x:;;;;;;", #"ADR;GEO="geo:1,2":;;;;;;;;;;1"#, "item1.ADR;TYPE=HOME;ALTID=1:;;;;;;"] {
            let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Jo\r\nN:Doe;Jo;;;\r\n\(line)\r\nEND:VCARD\r\n"
            for version in [VCardWriter.Version.v3, .v4] {
                let (contact, _, again) = try await importTwice(card, version)
                #expect(contact.postalAddresses.isEmpty, "\(line) \(version)")
                #expect(contact.vCardProperties.count == 1, "\(line) \(version): \(contact.vCardProperties)")
                #expect(again.unchanged == 1 && again.updated == 0, "\(line) \(version)")
            }
        }
    }

    @Test("Parameters with white space at an end (a username, a user id, a service) read back from their export")
    func paddedParameters() async throws {
        for version in [VCardWriter.Version.v3, .v4] {
            let fixture = try ImportFixture()
            var contact = Contact()
            contact.givenName = "Pad"
            contact.socialProfiles = [
                LabeledValue(
                    label: ContactLabel.home,
                    value: SocialProfile(
                        urlString: "https://twitter.com/jdoe", username: "jdoe ", userIdentifier: " 42",
                        service: "Twitter"))
            ]
            contact.instantMessageAddresses = [
                LabeledValue(
                    label: ContactLabel.home, value: InstantMessageAddress(username: "jdoe", service: "Skype "))
            ]
            var request = SaveRequest(transactionAuthor: "t")
            request.add(contact)
            try await fixture.store.execute(request)
            let before = try #require(try await fixture.contacts().first)
            let again = try await fixture.importText(try await fixture.export(version))
            #expect(again.unchanged == 1 && again.updated == 0, "\(version)")
            // Values and their identifiers as they were.
            let stored = try #require(try await fixture.contacts().first)
            #expect(stored.socialProfiles == before.socialProfiles, "\(version)")
            #expect(stored.instantMessageAddresses == before.instantMessageAddresses, "\(version)")
            #expect(stored.socialProfiles.first?.value.username == "jdoe ")
        }
    }

    @Test("A social profile's service with a comma is one service, read back whole")
    func serviceWithComma() async throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Doe;Jo;;;\r
            X-SOCIALPROFILE;X-SERVICE-TYPE="Acme, Inc. Social";x-user=jo:https://social.example/jo\r
            X-SOCIALPROFILE;type=twitter;x-user=jd:https://twitter.com/jd\r
            END:VCARD\r

            """
        for version in [VCardWriter.Version.v3, .v4] {
            let (contact, _, again) = try await importTwice(card, version)
            #expect(contact.socialProfiles.map(\.value.service) == ["Acme, Inc. Social", "Twitter"], "\(version)")
            #expect(again.unchanged == 1, "\(version)")
        }
    }

    /// A service saved as "twitter" was written `type=twitter`, Apple's spelling of "Twitter", and read back as
    /// "Twitter"; X-SERVICE-TYPE was also read into the framework's spelling (an outside tester's find).
    @Test(
        "A service spelled unlike the framework's constant reads back as it was saved; Apple's type=twitter is Twitter")
    func serviceCase() async throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Doe;Jo;;;\r
            X-SOCIALPROFILE;X-SERVICE-TYPE=twitter;x-user=a:https://twitter.com/a\r
            X-SOCIALPROFILE;X-SERVICE-TYPE=TWITTER;x-user=b:https://twitter.com/b\r
            X-SOCIALPROFILE;type=linkedin;x-user=c:https://linkedin.com/c\r
            X-SOCIALPROFILE;X-SERVICE-TYPE=Flickr;x-user=d:https://flickr.com/d\r
            IMPP;X-SERVICE-TYPE=jabber:xmpp:e@example.com\r
            IMPP;X-SERVICE-TYPE=SKYPE:skype:f\r
            IMPP:xmpp:g@example.com\r
            END:VCARD\r

            """
        for version in [VCardWriter.Version.v3, .v4] {
            let (contact, _, again) = try await importTwice(card, version)
            let social = contact.socialProfiles.map(\.value.service)
            #expect(social == ["twitter", "TWITTER", "LinkedIn", "Flickr"], "\(version)")
            let messaging = contact.instantMessageAddresses.map(\.value.service)
            #expect(messaging == ["jabber", "SKYPE", "Jabber"], "\(version)")
            #expect(again.unchanged == 1 && again.updated == 0, "\(version)")
        }
    }

    @Test("A control character in a property name is taken out before the name is read; a lone CR leaves kept lines")
    func controlCharacters() async throws {
        let named = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nE\u{1}MAIL:jo@example.com\r\nEND:VCARD\r\n"
        let (contact, _, again) = try await importTwice(named)
        #expect(contact.emailAddresses.map(\.value) == ["jo@example.com"])
        #expect(contact.vCardProperties.isEmpty)
        #expect(again.unchanged == 1)

        let carriage = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nX-FOO:abc\rdef\r\nEND:VCARD\r\n"
        let kept = try await importTwice(carriage)
        #expect(kept.contact.vCardProperties.map(\.value) == ["X-FOO:abcdef"])
        #expect(kept.first.warnings.contains { $0.key == "X-FOO" && $0.message.contains("control characters") })
        #expect(kept.again.unchanged == 1)
    }

    @Test("A BEGIN or END line inside a card is left out with a warning, not kept for export to drop")
    func strayBoundaries() async throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nEND:VCARDBEGIN:VCARD\r\nNOTE:n\r\nEND:VCARD\r\n"
        let (contact, first, again) = try await importTwice(card)
        #expect(contact.vCardProperties.isEmpty)
        #expect(contact.note == "n")
        #expect(first.warnings.map(\.key) == ["END"])
        #expect(first.warnings.first?.line == 4)
        #expect(again.unchanged == 1)
    }

    /// vCard 2.1's AGENT with a card inside: its END:VCARD ended the outer card, which took the agent's name and
    /// phone, and the card's own email and phone after it were text outside any card (an outside fuzzer's find).
    @Test("A 2.1 AGENT's embedded card stays in its AGENT line; the card keeps its own values")
    func embeddedAgent() async throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N:Outer;Olga;;;\r
            AGENT:BEGIN:VCARD\r
            VERSION:2.1\r
            N:Agent;Alan;;;\r
            TEL:+1 555 0001\r
            END:VCARD\r
            EMAIL:olga@example.com\r
            TEL:+1 555 0002\r
            END:VCARD\r

            """
        let (contact, first, again) = try await importTwice(card)
        #expect(first.skipped.isEmpty && first.added == 1)
        #expect([contact.givenName, contact.familyName] == ["Olga", "Outer"])
        #expect(contact.emailAddresses.map(\.value) == ["olga@example.com"])
        #expect(contact.phoneNumbers.map(\.value) == ["+1 555 0002"])
        let agent = #"AGENT:BEGIN:VCARD\nVERSION:2.1\nN:Agent;Alan;;;\nTEL:+1 555 0001\nEND:VCARD"#
        #expect(contact.vCardProperties.map(\.value) == [agent])
        #expect(again.unchanged == 1)
    }
}
