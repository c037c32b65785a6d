import CarnetStore
import CarnetVCard
import Foundation

// The vCard benchmark (release build): a 100,000-card file in the shape Apple Contacts exports, imported into a
// fresh database through the importer the CLI uses, then exported again.
// Run it with: swift run -c release carnet-vcard-bench [cards] [directory]

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let directory = arguments.count > 2 ? arguments[2] : "/tmp/carnet-vcard-bench"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

let given = ["José", "Anna", "Zoë", "Łukasz", "Mei", "Olivia", "Noah", "Amélie", "Björn", "Chiara", "Dmitri", "Emma"]
let family = ["Núñez", "Smith", "Ångström", "Kowalski", "Chen", "Müller", "García", "Dubois", "Rossi", "O'Brien"]
var text = ""
text.reserveCapacity(count * 520)
for index in 0..<count {
    let g = given[index % given.count], f = family[(index / 7) % family.count]
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
let file = URL(fileURLWithPath: "\(directory)/cards-\(count).vcf")
try Data(text.utf8).write(to: file)
text = ""
let path = "\(directory)/bench-\(count).sqlite"
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
let store = try CarnetStore.open(path: path)
let clock = ContinuousClock()

var start = clock.now
let data = try Data(contentsOf: file, options: .alwaysMapped)
let summary = try await VCardImporter(store: store, transactionAuthor: "bench").importCards(data)
let importTime = clock.now - start
print("import: \(count) cards (\(data.count / 1_048_576) MiB) in \(importTime): \(summary.added) added, \(summary.skipped.count) skipped, \(summary.groupsCreated) groups")

start = clock.now
let again = try await VCardImporter(store: store, transactionAuthor: "bench").importCards(data)
print("re-import of the same file in \(clock.now - start): \(again.unchanged) unchanged, \(again.updated) updated, \(again.added) added")

start = clock.now
_ = FileManager.default.createFile(atPath: "\(directory)/export-\(count).vcf", contents: nil)  // opening it below reports a failure
let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/export-\(count).vcf"))
let exported = try await VCardExporter(store: store).export { handle.write(Data($0.utf8)) }
try handle.close()
print("export: \(exported) cards in \(clock.now - start)")
try await store.close()
