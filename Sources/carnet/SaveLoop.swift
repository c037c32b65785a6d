import ArgumentParser
import CarnetStore
import Foundation

extension Carnet {
    /// Saves contacts one request at a time and prints each acknowledged identifier: the writer the
    /// crash-durability test kills with SIGKILL mid-stream.
    struct SaveLoop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save-loop", abstract: "Save contacts in a loop, printing each acknowledged id (testing).",
            shouldDisplay: false)

        @Option var database: String
        @Option var count: Int = 1_000_000
        @Option var author: String = "save-loop"

        func run() async throws {
            let store = try CarnetStore.open(path: database)
            for index in 0..<count {
                var contact = Contact()
                contact.givenName = "Loop"
                contact.familyName = "Contact \(index)"
                contact.emailAddresses = [LabeledValue(label: ContactLabel.home, value: "loop\(index)@example.com")]
                var request = SaveRequest(transactionAuthor: author)
                request.add(contact)
                try await store.execute(request)
                // Only after the commit returned: this line is the acknowledgement.
                FileHandle.standardOutput.write(Data((contact.identifier + "\n").utf8))
            }
        }
    }
}
