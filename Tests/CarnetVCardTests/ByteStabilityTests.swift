import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15's bar: export → import → export is byte-stable for every card of the corpus, in 3.0 and 4.0, into
/// the same store and into a fresh one.
@Suite("Export, import, export")
struct ByteStabilityTests {
    static var files: [(String, Data)] {
        var files = (Corpus.all + FidelityCorpus.all).map { ("corpus", Data($0.utf8)) }
        files.append(("outlook", Corpus.outlook.data(using: .isoLatin1) ?? Data()))
        files.append(("outlookLabel", FidelityCorpus.outlookLabel.data(using: .windowsCP1252) ?? Data()))
        files.append(("outlookNoCharset", FidelityCorpus.outlookNoCharset.data(using: .windowsCP1252) ?? Data()))
        return files
    }

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func everyCardIsStable(version: VCardWriter.Version) async throws {
        let fixture = try ImportFixture()
        for (name, data) in Self.files {
            let summary = try await fixture.importData(data)
            #expect(summary.skipped.isEmpty, "\(name): \(summary.skipped)")
        }
        let first = try await fixture.export(version)
        let again = try await fixture.importText(first)
        #expect(again.added == 0 && again.updated == 0 && again.skipped.isEmpty)
        #expect(try await fixture.export(version) == first)
        let fresh = try ImportFixture()
        try await fresh.importText(first)
        #expect(try await fresh.export(version) == first)
        for line in first.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
    }
}
