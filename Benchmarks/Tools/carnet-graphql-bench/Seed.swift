import CarnetStore
import CarnetStoreSQLite
import Foundation

/// A deterministic data set: names with diacritics, 1–3 phones, 1–3 emails, 0–2 addresses, some groups.
enum Seed {
    struct Seeded {
        var identifiers: [String] = []
        var historyToken = ""
    }

    static let given = [
        "José", "Anna", "Zoë", "Łukasz", "Mei", "Olivia", "Noah", "Amélie", "Björn", "Chiara", "Dmitri",
        "Emma", "Fatima", "Giulia", "Hiroshi", "Ingrid", "Jonas", "Kaito", "Léa", "Mateo", "Nora", "Oskar", "Priya",
    ]
    static let family = [
        "Núñez", "Smith", "Ångström", "Kowalski", "Chen", "Müller", "García", "Dubois", "Rossi",
        "Novak", "Jensen", "Tanaka", "O'Brien", "Schmidt", "Silva", "Nguyen", "Ivanova", "Larsen", "Moreau", "Costa",
    ]

    static func run(_ store: SQLiteStore, contacts: Int) async throws -> Seeded {
        var seeded = Seeded()
        let rng = SystemRandomNumberGenerator()
        _ = rng
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var groups: [Group] = []
        var setup = SaveRequest(transactionAuthor: "seed")
        for index in 0..<20 {
            let group = Group(name: "Group \(index)")
            groups.append(group)
            setup.add(group)
        }
        try await store.execute(setup)
        for start in stride(from: 0, to: contacts, by: 1000) {
            var request = SaveRequest(transactionAuthor: "seed")
            for index in start..<min(start + 1000, contacts) {
                var contact = Contact()
                let givenName = given[next() % given.count]
                let familyName = family[next() % family.count]
                contact.givenName = givenName
                contact.familyName = familyName + (index % 7 == 0 ? "-\(index % 13)" : "")
                contact.jobTitle = index % 3 == 0 ? "Engineer" : ""
                contact.organizationName = index % 4 == 0 ? "Acme \(index % 50)" : ""
                contact.birthday =
                    index % 5 == 0
                    ? ContactDate(year: 1950 + index % 60, month: 1 + index % 12, day: 1 + index % 28) : nil
                let ascii = givenName.folding(options: [.diacriticInsensitive], locale: nil).lowercased()
                contact.emailAddresses = (0..<(1 + next() % 3)).map {
                    LabeledValue(
                        label: [ContactLabel.home, ContactLabel.work, nil][$0],
                        value: "\(ascii).\(index).\($0)@example.com")
                }
                contact.phoneNumbers = (0..<(1 + next() % 3)).map {
                    LabeledValue(
                        label: [ContactLabel.phoneMobile, ContactLabel.work, ContactLabel.home][$0],
                        value: "+1 555 \(100 + next() % 900) \(1000 + next() % 9000)")
                }
                contact.postalAddresses = (0..<(next() % 3)).map { _ in
                    LabeledValue(
                        label: ContactLabel.home,
                        value: PostalAddress(
                            street: "\(next() % 900) Main St", city: "Springfield",
                            postalCode: "\(10000 + next() % 89999)", country: "United States", isoCountryCode: "us"))
                }
                request.add(contact)
                if index % 10 == 0 {
                    request.addMember(contact.identifier, toGroup: groups[index % groups.count].identifier)
                }
                seeded.identifiers.append(contact.identifier)
            }
            let result = try await store.execute(request)
            if start == 0 { seeded.historyToken = result.historyToken }
        }
        return seeded
    }
}
