import Foundation

/// A vCard 3.0 file in the shape Apple Contacts exports: names with diacritics, an organization, two emails, two
/// phones (one with a custom label), an address, a birthday, a note, a category and a social profile per card.
enum VCardFile {
    static func make(cards count: Int) -> Data {
        let given = Fixture.given
        let family = Fixture.family
        var text = ""
        text.reserveCapacity(count * 620)
        for index in 0..<count {
            let g = given[index % given.count]
            let f = family[(index / 7) % family.count]
            text += """
                BEGIN:VCARD\r
                VERSION:3.0\r
                PRODID:-//Apple Inc.//iPhone OS 17.0//EN\r
                N:\(f);\(g);;;\r
                FN:\(g) \(f)\r
                ORG:Acme \(index % 300);Sales\r
                TITLE:Engineer\r
                EMAIL;type=INTERNET;type=HOME;type=pref:\(index)@example.com\r
                EMAIL;type=INTERNET;type=WORK:\(index).work@example.org\r
                TEL;type=CELL;type=VOICE;type=pref:+1 (555) \(100 + index % 900)-\(1000 + index % 9000)\r
                item1.TEL:+44 20 7946 \(1000 + index % 9000)\r
                item1.X-ABLabel:Boat\r
                item2.ADR;type=HOME;type=pref:;;\(index) Main Street;Springfield;IL;62701;United States\r
                item2.X-ABADR:us\r
                BDAY:19\(50 + index % 50)-0\(1 + index % 9)-1\(index % 9)\r
                NOTE:Met at the conference\\, table \(index % 40).\r
                CATEGORIES:Team \(index % 20)\r
                X-SOCIALPROFILE;type=twitter:https://twitter.com/user\(index)\r
                END:VCARD\r

                """
        }
        return Data(text.utf8)
    }
}
