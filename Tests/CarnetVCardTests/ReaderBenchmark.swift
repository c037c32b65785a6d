import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// A timing hook, not a timed assertion: `CARNET_VCARD_BENCH=1 swift test -c release --filter ReaderBenchmark`
/// prints how long 100,000 cards take to read and write.
@Suite("Benchmark", .enabled(if: ProcessInfo.processInfo.environment["CARNET_VCARD_BENCH"] != nil))
struct ReaderBenchmark {
    @Test func hundredThousandCards() throws {
        let cards = [Corpus.appleContacts, Corpus.googleContacts, Corpus.iPhone, Corpus.cardDAV, Corpus.appleCompany]
        var file = ""
        for index in 0..<100_000 {
            file += cards[index % cards.count].replacingOccurrences(of: "5AD380FD", with: String(index, radix: 16))
        }
        let data = Data(Corpus.crlf(file).utf8)
        let start = Date()
        let (read, issues) = try VCardReader().read(data)
        let readTime = Date().timeIntervalSince(start)
        #expect(issues.isEmpty)
        let writeStart = Date()
        let written = VCardWriter().write(read)
        let writeTime = Date().timeIntervalSince(writeStart)
        print(
            """
            vCard benchmark: \(read.count) cards, \(data.count / 1_000_000) MB read in \(String(format: "%.2f", readTime)) s \
            (\(String(format: "%.1f", readTime / Double(read.count) * 1e6)) µs/card); \
            \(written.utf8.count / 1_000_000) MB written in \(String(format: "%.2f", writeTime)) s
            """)
    }
}
