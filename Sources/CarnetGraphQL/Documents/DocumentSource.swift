import GraphQL

/// The client's text of a document and how the text GraphQLSwift parsed differs from it: turns the offsets the
/// library and its syntax nodes carry into the positions clients see.
struct DocumentSource: Sendable {
    /// The text as the client sent it.
    let original: String
    let map: SourceMap

    /// Positions of offsets in the parsed text, in the client's text.
    func positions(ofParsedOffsets offsets: [Int]) -> [SourcePosition] {
        guard !offsets.isEmpty else { return [] }
        let originalOffsets = map.edits.isEmpty ? offsets : offsets.map(map.originalOffset)
        var text = original
        return text.withUTF8 { SourcePosition.positions(ofUTF8Offsets: originalOffsets, in: $0) }
    }

    /// Where a syntax node starts (a field's position is its alias or name, as in graphql-js).
    func positions(of node: any Node) -> [SourcePosition] {
        node.loc.map { positions(ofParsedOffsets: [$0.start]) } ?? []
    }

    /// Library errors (parse or validation) as response errors, at the client's positions (found in one pass
    /// over the text for all of them).
    func responseErrors(_ errors: [GraphQLError], defaultCode: ErrorCode) -> [ResponseError] {
        var all = positions(ofParsedOffsets: errors.flatMap(\.positions))[...]
        return errors.map { error in
            let code = error.extensions["code"]?.string.map(ErrorCode.init(rawValue:)) ?? defaultCode
            let locations = Array(all.prefix(error.positions.count))
            all = all.dropFirst(error.positions.count)
            var message = Self.message(error.message)
            if let offset = error.positions.first, let renamed = renamingCharacter(message, atParsedOffset: offset) {
                message = renamed
            }
            return ResponseError(message: message, code: code, locations: locations)
        }
    }

    /// graphql-js's form of a syntax error's message: GraphQLSwift's carries its own (byte-counted) position and
    /// an excerpt of the parsed text, which may differ from the client's.
    static func message(_ message: String) -> String {
        let prefix = "Syntax Error "
        guard message.hasPrefix(prefix), let close = message.range(of: ") ") else { return message }
        var description = message[close.upperBound...]
        if let excerpt = description.range(of: "\n\n") { description = description[..<excerpt.lowerBound] }
        return "Syntax Error: " + description
    }
}
