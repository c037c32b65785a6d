import CarnetStore
import CarnetStoreSQLite
import Foundation

/// The data set: `small` books of `smallSize` contacts and `large` books of `largeSize`, all owned by one principal,
/// made once per directory and described by a manifest (books and their contacts' identifiers).
struct Manifest: Codable, Sendable {
    var principalID: String
    var small: [Book]
    var large: [Book]

    struct Book: Codable, Sendable {
        var id: String
        var contacts: [String]
    }

    static func path(_ directory: String) -> String { (directory as NSString).appendingPathComponent("manifest.json") }

    static func load(_ directory: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: path(directory)) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    static func seed(
        directory: String, configuration: StoreConfiguration, small: Int, smallSize: Int, large: Int, largeSize: Int
    ) async throws -> Manifest {
        let folder = try await DataFolder.open(directory: directory, configuration: configuration, openBooks: 8)
        let principal = try await folder.catalog.createPrincipal(name: "bench")
        var manifest = Manifest(principalID: principal.id, small: [], large: [])
        let started = ContinuousClock.now
        for index in 0..<(small + large) {
            let size = index < small ? smallSize : largeSize
            let book = try await folder.catalog.createBook(name: "Book \(index)", ownerID: principal.id)
            let ids = try await folder.bookStores.withStore(book) { store in
                var ids: [String] = []
                for start in stride(from: 0, to: size, by: 5_000) {
                    var request = SaveRequest(transactionAuthor: "seed")
                    for number in start..<min(start + 5_000, size) {
                        var contact = Contact()
                        contact.givenName = ["Anna", "Ben", "Chloé", "Dev", "Eli"][number % 5]
                        contact.familyName = "Family \(number % 997)"
                        contact.emailAddresses = [
                            LabeledValue(label: ContactLabel.home, value: "p\(number)@example.com")
                        ]
                        ids.append(contact.identifier)
                        request.add(contact)
                    }
                    try await store.execute(request)
                }
                return ids
            }
            let entry = Book(id: book.id, contacts: ids)
            if index < small { manifest.small.append(entry) } else { manifest.large.append(entry) }
            if index % 1_000 == 999 {
                print("seeded \(index + 1) books in \(ContinuousClock.now - started)")
            }
        }
        try await folder.close()
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: path(directory)))
        return manifest
    }
}
