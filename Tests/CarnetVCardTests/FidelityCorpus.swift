import Foundation

/// Cards in the shapes exporters write, for what issue 15 found lost: values over the store's limits, group
/// cards, RELATED by UID, 2.1's encodings, FN without N, Android's custom labels. Written from RFC 2426/6350,
/// the vCard 2.1 specification, Apple's CardDAV extensions and what the exporters are known to emit.
enum FidelityCorpus {
    /// iCloud/macOS 3.0: a 200,000-character note and a 300-character custom phone label.
    static let iCloudLongValues = """
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Long;Nora;;;
        FN:Nora Long
        item1.TEL;type=pref:+1 555 0100
        item1.X-ABLabel:\(String(repeating: "Ferienhaus am See ", count: 17))
        TEL;type=CELL;type=VOICE:+1 555 0101
        NOTE:\(String(repeating: "Lorem ipsum dolor sit amet\\, ", count: 6_900))
        UID:2B0E3C4A-1F63-4C55-9B1E-6F7A1D2E3B40
        END:VCARD

        """

    /// iCloud/macOS 3.0 export with Apple's group card, listing one member before and one after it in the file.
    static let appleGroup = """
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Ahn;Grace;;;
        FN:Grace Ahn
        EMAIL;type=INTERNET;type=HOME;type=pref:grace@example.com
        UID:6F1C2B0A-0D7E-4B8E-9E43-2A1F5C3D4E01
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Book Club;;;;
        FN:Book Club
        X-ADDRESSBOOKSERVER-KIND:group
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:6F1C2B0A-0D7E-4B8E-9E43-2A1F5C3D4E01
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D
        REV:2024-03-01T10:00:00Z
        UID:C0FFEE00-1111-4222-8333-444455556666
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Berg;Ivo;;;
        FN:Ivo Berg
        TEL;type=CELL;type=VOICE;type=pref:+1 555 0199
        UID:9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D
        END:VCARD

        """

    /// A CardDAV server's 4.0 group card (Nextcloud/SabreDAV), its members later in the file, one of them also
    /// related to the other by UID.
    static let cardDAVGroupAndRelated = """
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Sabre//Sabre VObject 4.5.4//EN
        UID:urn:uuid:5d3f1a2b-0000-4000-8000-00000000c1ab
        KIND:group
        FN:Climbing
        MEMBER:urn:uuid:a1b2c3d4-0000-4000-8000-000000000001
        MEMBER:urn:uuid:a1b2c3d4-0000-4000-8000-000000000002
        REV:20240315T120000Z
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Sabre//Sabre VObject 4.5.4//EN
        UID:urn:uuid:a1b2c3d4-0000-4000-8000-000000000001
        FN:Marta Nowak
        N:Nowak;Marta;;;
        RELATED;TYPE=spouse:urn:uuid:a1b2c3d4-0000-4000-8000-000000000002
        RELATED;TYPE=friend:urn:uuid:ffffffff-0000-4000-8000-00000000dead
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Sabre//Sabre VObject 4.5.4//EN
        UID:urn:uuid:a1b2c3d4-0000-4000-8000-000000000002
        FN:Tomasz Nowak
        N:Nowak;Tomasz;;;
        EMAIL;TYPE=home:tomasz@example.pl
        END:VCARD

        """

    /// Outlook 2.1: LABEL in quoted-printable (Windows-1252) with a literal `=` and a soft line break, and an
    /// address line long enough that a kept quoted-printable line would fold right after an `=`.
    static let outlookLabel = """
        BEGIN:VCARD
        VERSION:2.1
        N;LANGUAGE=de;CHARSET=Windows-1252:Vogel;Käthe
        FN;CHARSET=Windows-1252:Käthe Vogel
        ADR;WORK;PREF;ENCODING=QUOTED-PRINTABLE;CHARSET=Windows-1252:;;Hauptstra=DFe 1;Z=FCrich;;8001;Schweiz
        LABEL;WORK;PREF;ENCODING=QUOTED-PRINTABLE;CHARSET=Windows-1252:Hauptstra=DFe 1 =3D Eingang B, Hinterhof, 3. Stoc=
        k=0D=0A8001 Z=FCrich=0D=0ASchweiz
        X-MS-OL-DEFAULT-POSTAL-ADDRESS:2
        EMAIL;PREF;INTERNET:kaethe@example.ch
        END:VCARD

        """

    /// Outlook 2.1 without CHARSET: the name and note in raw Windows-1252 bytes (encode with `windows1252`).
    static let outlookNoCharset = """
        BEGIN:VCARD
        VERSION:2.1
        N:Šimek;Zoë
        FN:Zoë Šimek
        NOTE:Café – “Grüße”
        X-MS-CARDPICTURE-NOTE:Straße
        END:VCARD

        """

    /// Android's 2.1 export: quoted-printable UTF-8 names, a custom phone label as an `X-` type.
    static let android = """
        BEGIN:VCARD
        VERSION:2.1
        N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;
        FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen=20M=C3=BCller
        TEL;CELL:+49 170 1234567
        TEL;X-Mobil 2:+49 171 7654321
        EMAIL;HOME:juergen@example.de
        X-ANDROID-CUSTOM;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:vnd.android.cursor.item/relation;=41nna;14;;;;;;;;;;;;;
        END:VCARD

        """

    /// Google's 3.0 export of a contact typed into one name field: FN only.
    static let fnOnly = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Dr. María José van der Berg Jr.
        EMAIL;TYPE=INTERNET:mj@example.com
        END:VCARD

        """

    static var all: [String] {
        [iCloudLongValues, appleGroup, cardDAVGroupAndRelated, outlookLabel, android, fnOnly]
    }
}
