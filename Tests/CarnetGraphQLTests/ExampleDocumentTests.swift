import CarnetGraphQL
import Foundation
import GraphQL
import Testing

@testable import CarnetGraphQL

/// The documents in `examples/operations` are what client authors copy: each must stay valid against the schema.
@Suite("Example documents")
struct ExampleDocumentTests {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/operations")
    }

    @Test("Every example operation parses and validates against the schema")
    func examplesValidate() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".graphql") }.sorted()
        #expect(files.count >= 5)
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let document = try parse(source: Source(body: text, name: file))
            let errors = validate(schema: CarnetSchema.schema, ast: document)
            #expect(errors.isEmpty, "\(file): \(errors.map(\.message))")
        }
    }
}
