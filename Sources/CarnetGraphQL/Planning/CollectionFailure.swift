/// A selection set that could not be collected: the error, and where its cause (the null condition) starts in the
/// parsed text, which the error's location names.
struct CollectionFailure: Sendable {
    let error: FieldError
    let offset: Int?

    /// Where the cause is in the client's text.
    func locations(in source: DocumentSource) -> [SourcePosition] {
        offset.map { source.positions(ofParsedOffsets: [$0]) } ?? []
    }

    /// The response's error at `path`, located at the cause (`locations`, when the caller found them already).
    func responseError(
        _ source: DocumentSource, path: [PathElement], locations: [SourcePosition]? = nil
    ) -> ResponseError {
        ResponseError(
            message: error.message, code: error.code, locations: locations ?? self.locations(in: source), path: path,
            extensions: error.extensions)
    }
}
