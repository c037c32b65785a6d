import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Foundation

// `carnet-test-writer --database PATH|postgres://… [--book ID] [--count N] [--author NAME]`: saves contacts one
// request at a time and prints each acknowledged identifier, only after its commit returned. The durability tests
// kill it with SIGKILL mid-stream and check that every printed identifier was saved (in a SQLite file, or in book
// `--book` of a PostgreSQL database); the notification test runs it as another process writing to the same file.

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst(), name.hasPrefix("--"), let value = arguments.popFirst() {
    options[String(name.dropFirst(2))] = value
}
guard let database = options["database"] else {
    FileHandle.standardError.write(Data("usage: carnet-test-writer --database PATH [--count N] [--author NAME]\n".utf8))
    exit(2)
}
let count = options["count"].flatMap(Int.init) ?? 1_000_000
let author = options["author"] ?? "test-writer"

let store: any ContactStore
if database.hasPrefix("postgres://") {
    let backend = try await PostgresBackend.open(try PostgresLocation(url: database))
    let book = AddressBook(id: options["book"] ?? "test-writer", name: "Writer", ownerID: "tests")
    store = try await backend.books.acquire(book)
} else {
    store = try SQLiteStore.open(path: database)
}
for index in 0..<count {
    var contact = Contact()
    contact.givenName = "Loop"
    contact.familyName = "Contact \(index)"
    contact.emailAddresses = [LabeledValue(label: ContactLabel.home, value: "loop\(index)@example.com")]
    var request = SaveRequest(transactionAuthor: author)
    request.add(contact)
    try await store.execute(request)
    FileHandle.standardOutput.write(Data((contact.identifier + "\n").utf8))
}
try await store.close()
