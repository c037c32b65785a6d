import CarnetStore
import Testing

@testable import CarnetGraphQL

/// Long runs of combining marks, which Swift's string hashing normalizes in time quadratic in the run (a JSON key
/// of 160,000 marks took 6 s to hash): refused where client text enters, below the run that would cost.
@Suite("Runs of combining marks")
struct CombiningMarksTests {
    /// `count` combining marks in a row, alternating two classes (230 and 220) so normalizing must reorder them.
    static func marks(_ count: Int) -> String {
        String(String.UnicodeScalarView((0..<count).map { Unicode.Scalar($0 % 2 == 0 ? 0x0301 : 0x0316)! }))
    }

    @Test("JSON strings and keys, raw or escaped, may hold runs up to the limit, not past it")
    func json() throws {
        let limit = CombiningMarks.maxRun
        let escapedRun = String(repeating: #"\u0301\u0316"#, count: (limit + 1) / 2)
        for (text, refused) in [
            (#"{"a\#(Self.marks(limit))": "x"}"#, false), (#"{"a\#(Self.marks(limit + 1))": "x"}"#, true),
            (#"{"k": "a\#(Self.marks(limit + 1))"}"#, true), (#"{"k": "a\#(escapedRun)\u0301"}"#, true),
            // Runs broken by a letter, however many marks in all.
            (#"{"k": "\#(String(repeating: "e" + Self.marks(200), count: 100))"}"#, false),
            // Hangul and Latin-1 text, no marks at all.
            (#"{"k": "한국어 café"}"#, false),
        ] {
            do {
                _ = try JSONParser.parse(text)
                #expect(!refused, "\(text.unicodeScalars.count) scalars")
            } catch let failure as JSONParser.Failure {
                #expect(refused && failure.reason.contains("combining marks"), "\(failure)")
            }
        }
    }

    @Test("A GET's query and operationName are checked as the JSON parameters are")
    func getParameters() throws {
        let long = "{ __typename } # a" + Self.marks(CombiningMarks.maxRun + 1)
        #expect(throws: GraphQLRequestError.self) { try GraphQLRequestBody(queryItems: ["query": long]) }
        #expect(throws: GraphQLRequestError.self) {
            try GraphQLRequestBody(queryItems: ["query": "{ __typename }", "operationName": long])
        }
        let fine = "{ __typename } # a" + Self.marks(CombiningMarks.maxRun)
        #expect(try GraphQLRequestBody(queryItems: ["query": fine]).query == fine)
    }
}
