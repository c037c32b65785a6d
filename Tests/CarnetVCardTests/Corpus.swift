import Foundation

/// Cards in the shapes real exporters produce, written from their formats' documentation and observed exports.
/// Line ends are LF here; `crlf` gives the CRLF form most exporters write.
enum Corpus {
    /// Apple Contacts (macOS) 3.0 export: Apple's TYPE habits, `itemN.X-ABLabel` custom labels, X-ABADR, a
    /// year-less birthday, X-SOCIALPROFILE, IMPP, a folded base64 photo and Apple's X-ABUID.
    static let appleContacts = """
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Appleseed;John;Quincy;Dr.;Jr.
        FN:Dr. John Quincy Appleseed Jr.
        NICKNAME:Johnny
        X-MAIDENNAME:Smith
        X-PHONETIC-FIRST-NAME:Jon
        X-PHONETIC-MIDDLE-NAME:Quin
        X-PHONETIC-LAST-NAME:Apple-seed
        ORG:Apple Inc.;Engineering
        TITLE:Senior Engineer
        EMAIL;type=INTERNET;type=HOME;type=pref:john@example.com
        EMAIL;type=INTERNET;type=WORK:jappleseed@apple.example
        item1.EMAIL;type=INTERNET:john@icloud.example
        item1.X-ABLabel:iCloud
        TEL;type=IPHONE;type=CELL;type=VOICE;type=pref:+1 (408) 555-0101
        TEL;type=HOME;type=VOICE:+1 (408) 555-0102
        TEL;type=WORK;type=FAX:+1 (408) 555-0103
        item2.TEL:+1 (408) 555-0104
        item2.X-ABLabel:Lake house
        TEL;type=CELL;type=VOICE:
        item3.ADR;type=HOME;type=pref:;;1 Infinite Loop\\nBuilding 2;Cupertino;CA;95014;United States
        item3.X-ABADR:us
        item4.URL;type=pref:https://www.apple.example
        item4.X-ABLabel:_$!<HomePage>!$_
        item5.X-ABDATE;type=pref:2004-06-12
        item5.X-ABLabel:_$!<Anniversary>!$_
        item6.X-ABRELATEDNAMES;type=pref:Jane Appleseed
        item6.X-ABLabel:_$!<Spouse>!$_
        X-SOCIALPROFILE;type=twitter;x-user=jappleseed:https://twitter.com/jappleseed
        IMPP;X-SERVICE-TYPE=Skype;type=HOME;type=pref:skype:john.appleseed
        BDAY;X-APPLE-OMIT-YEAR=1604:1604-03-14
        NOTE:Met at WWDC\\, 2019.\\nLikes hiking; and coffee.
        PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAAAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHy
         AhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1x
         dXl9gYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnf/2Q==
        CATEGORIES:Friends,Work
        X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson
        UID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE
        END:VCARD

        """

    /// Apple Contacts 3.0 export of a company card.
    static let appleCompany = """
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:;;;;
        FN:Blue Bottle Coffee
        ORG:Blue Bottle Coffee;
        X-PHONETIC-ORG:Blue Bottle
        X-ABShowAs:COMPANY
        TEL;type=MAIN;type=pref:+1 510-653-3394
        TEL;type=PAGER:+1 510-555-0199
        TEL;type=OTHER;type=FAX:+1 510-555-0198
        item1.EMAIL;type=INTERNET;type=pref:hello@bluebottle.example
        item1.X-ABLabel:_$!<Other>!$_
        URL;type=WORK:https://bluebottle.example
        END:VCARD

        """

    /// Google Contacts 3.0 export ("Google CSV"'s vCard sibling): uppercase TYPE, CATEGORIES:myContacts, Apple-style
    /// items for custom labels.
    static let googleContacts = """
        BEGIN:VCARD
        VERSION:3.0
        FN:María García
        N:García;María;;;
        NICKNAME:Mari
        EMAIL;TYPE=INTERNET;TYPE=HOME:maria.garcia@gmail.example
        EMAIL;TYPE=INTERNET;TYPE=WORK:mgarcia@example.es
        TEL;TYPE=CELL:+34 600 123 456
        TEL;TYPE=WORK:+34 91 123 45 67
        ADR;TYPE=HOME:;;Calle Mayor 1;Madrid;;28013;España
        ORG:Ejemplo S.L.
        TITLE:Directora
        BDAY:1985-07-21
        item1.URL:https\\://maria.example.es
        item1.X-ABLabel:Blog
        item2.X-ABDATE:2010-09-04
        item2.X-ABLabel:_$!<Anniversary>!$_
        item3.X-ABRELATEDNAMES:Carlos
        item3.X-ABLabel:_$!<Brother>!$_
        NOTE:Prefers WhatsApp
        CATEGORIES:myContacts,Family
        END:VCARD

        """

    /// Outlook 2.1 export: bare TYPE parameters, CHARSET=windows-1252 (raw 8-bit bytes and quoted-printable),
    /// quoted-printable soft line breaks, LABEL and Outlook's own X-MS- properties. Encode it with `latin1`.
    static let outlook = """
        BEGIN:VCARD
        VERSION:2.1
        N;LANGUAGE=de;CHARSET=Windows-1252:Müller;Jürgen
        FN;CHARSET=Windows-1252:Jürgen Müller
        ORG;CHARSET=Windows-1252:Müller & Söhne GmbH;Vertrieb
        TITLE:Leiter Vertrieb
        TEL;WORK;VOICE:+49 89 1234567
        TEL;HOME;VOICE:+49 89 7654321
        TEL;CELL;VOICE:+49 170 1234567
        TEL;WORK;FAX:+49 89 1234568
        ADR;WORK;PREF;ENCODING=QUOTED-PRINTABLE;CHARSET=Windows-1252:;;Stra=DFe des 17. Juni 1=0D=0A=
        Hinterhaus;M=FCnchen;Bayern;80331;Deutschland
        LABEL;WORK;PREF;ENCODING=QUOTED-PRINTABLE;CHARSET=Windows-1252:Stra=DFe des 17. Juni 1=0D=0A=
        M=FCnchen 80331
        X-MS-OL-DEFAULT-POSTAL-ADDRESS:2
        URL;WORK:http://www.mueller-soehne.example
        EMAIL;PREF;INTERNET:juergen.mueller@mueller-soehne.example
        NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=Windows-1252:Kunde seit 2003.=0D=0ABevorzugt Anrufe vormittags =96 nicht=
         freitags.
        BDAY:19700412
        X-MS-OL-DESIGN;CHARSET=utf-8:<card xmlns="http://schemas.microsoft.com/office/outlook/12/electronicbusinesscards" ver="1.0" layout="left" bgcolor="ffffff"></card>
        REV:20240102T101500Z
        END:VCARD

        """

    /// An iPhone share-sheet card: related names, an alternate (Chinese) birthday, IM both as IMPP and the older
    /// X-AIM, social profiles with and without a URL, and Apple's address extras.
    static let iPhone = """
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//iPhone OS 17.4//EN
        N:Nguyễn;Linh;;;
        FN:Linh Nguyễn
        TEL;type=CELL;type=VOICE;type=pref:+84 90 123 4567
        item1.X-ABRELATEDNAMES;type=pref:Minh Nguyễn
        item1.X-ABLabel:_$!<Father>!$_
        item2.X-ABRELATEDNAMES:Hoa Trần
        item2.X-ABLabel:_$!<Mother>!$_
        item3.X-ABRELATEDNAMES:Bảo
        item3.X-ABLabel:godson
        BDAY;value=date:1985-12-12
        X-ALTBDAY;CALSCALE=chinese:007800021101
        X-AIM;type=HOME;type=pref:linh.aim
        IMPP;X-SERVICE-TYPE=AIM;type=HOME;type=pref:aim:linh.aim
        IMPP;X-SERVICE-TYPE=Jabber;type=WORK:xmpp:linh@jabber.example.org
        IMPP;X-SERVICE-TYPE=WeChat:x-apple:linh_wx
        X-ICQ:123456789
        X-SOCIALPROFILE;type=linkedin;x-user=linhnguyen:http://www.linkedin.com/in/linhnguyen
        item4.X-SOCIALPROFILE;type=facebook;x-user=linh.nguyen;x-userid=100001:x-apple:linh.nguyen
        item4.X-ABLabel:Personal
        item5.ADR;type=WORK:;;12 Lê Lợi;Hồ Chí Minh;;700000;Việt Nam
        item5.X-ABADR:vn
        item5.X-APPLE-SUBLOCALITY:Quận 1
        item5.X-APPLE-SUBADMINISTRATIVEAREA:Bến Nghé
        END:VCARD

        """

    /// A CardDAV server's 4.0 card (SabreDAV/Nextcloud shape): KIND, a `--MMDD` birthday, ANNIVERSARY, RELATED as
    /// text and as a URI, `tel:` URIs, quoted TYPE lists, PREF, a data-URI photo and properties Carnet has no key for.
    static let cardDAV = """
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Sabre//Sabre VObject 4.5.4//EN
        UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1
        KIND:individual
        FN:Anna Kowalska
        N:Kowalska;Anna;Maria;;
        GENDER:F
        BDAY:--0314
        ANNIVERSARY:20120630
        EMAIL;TYPE=work;PREF=1:anna.kowalska@example.pl
        EMAIL;TYPE=home:anna@example.com
        TEL;VALUE=uri;TYPE="cell,voice";PREF=1:tel:+48-600-700-800
        TEL;VALUE=uri;TYPE=home:tel:+48-22-123-45-67
        ADR;TYPE=home;LABEL="ul. Długa 5\\nWarszawa":;;ul. Długa 5;Warszawa;mazowieckie;00-238;Polska
        RELATED;TYPE=spouse;VALUE=text:Piotr Kowalski
        RELATED;TYPE=child;VALUE=text:Zosia
        RELATED;TYPE=friend:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af
        IMPP;TYPE=home;PREF=1:xmpp:anna@jabber.example.pl
        URL;TYPE=work:https://example.pl/~anna
        LANG;PREF=1:pl
        TZ;VALUE=utc-offset:+0100
        GEO:geo:52.2297,21.0122
        NOTE:Sąsiadka z naprzeciwka.
        PHOTO:data:image/png;base64,iVBORw0KGgrIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==
        CATEGORIES:Sąsiedzi
        REV:20240315T120000Z
        END:VCARD

        """

    /// A 4.0 organization card with only FN for its name.
    static let cardDAVOrganization = """
        BEGIN:VCARD
        VERSION:4.0
        KIND:org
        FN:ACME Corporation
        TEL;TYPE=work,voice:+1-555-0100
        EMAIL:info@acme.example
        LOGO;MEDIATYPE=image/png:https://acme.example/logo.png
        END:VCARD

        """

    /// Evolution/Android-style extensions and a grouped property Carnet has no key for.
    static let unknownProperties = """
        BEGIN:VCARD
        VERSION:3.0
        N:Doe;Jane;;;
        FN:Jane Doe
        X-EVOLUTION-FILE-AS:Doe\\, Jane
        X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;JD;1;;;;;;;;;;;;;
        item1.X-CUSTOM-THING;x-flag=yes:some value
        item1.X-ABLabel:Thing
        EMAIL;TYPE=INTERNET:jane@example.com
        GEO:37.386013;-122.082932
        TZ:-05:00
        X-ABUID:ABC-123:ABPerson
        BDAY;VALUE=text:circa 1800
        PHOTO;VALUE=uri:https://example.com/jane.jpg
        KIND:location
        END:VCARD

        """

    /// A 2.1 card from an old phone: a base64 photo in 2.1's style (folded with spaces and ended by a blank line)
    /// and X-AIM-era IM properties.
    static let phone21 = """
        BEGIN:VCARD
        VERSION:2.1
        N:Smith;Bob
        FN:Bob Smith
        TEL;PREF;CELL:555-0123
        TEL;PAGER:555-0124
        EMAIL;INTERNET;HOME:bob@example.net
        X-YAHOO:bobsmith
        X-MSN;WORK:bob@hotmail.example
        X-SKYPE-USERNAME:bob.smith
        PHOTO;ENCODING=BASE64;TYPE=PNG:
          iVBORw0KGgrIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4
          +fr7/P3+/w==

        NOTE;ENCODING=QUOTED-PRINTABLE:Line one=0D=0ALine two =3D equal
        END:VCARD

        """

    /// A Yahoo/Thunderbird-style 3.0 card with a non-Gregorian birthday (Hebrew), an X-ANNIVERSARY and
    /// the PREF-only TYPE that is no label.
    static let thunderbird = """
        BEGIN:VCARD
        VERSION:3.0
        N:Levi;David;;;
        FN:David Levi
        X-ALTBDAY;CALSCALE=hebrew:57450101
        X-ANNIVERSARY:2015-05-20
        EMAIL;TYPE=PREF:david@example.co.il
        TEL;TYPE=VOICE:+972 3 555 0000
        ADR:;;Rothschild Blvd 1;Tel Aviv;;;Israel
        URL:https://david.example.co.il
        END:VCARD

        """

    /// Every card above, as one file.
    static var all: [String] {
        [
            appleContacts, appleCompany, googleContacts, iPhone, cardDAV, cardDAVOrganization, unknownProperties,
            phone21, thunderbird,
        ]
    }

    static func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }
}
