/// A selection set that could not be collected: the error, and where its cause (the null condition) starts in the
/// parsed text, which the error's location names.
struct CollectionFailure: Sendable {
    let error: FieldError
    let offset: Int?

    /// The response's error at `path`, located at the cause.
    func responseError(_ source: DocumentSource, path: [PathElement]) -> ResponseError {
        ResponseError(
            message: error.message, code: error.code,
            locations: offset.map { source.positions(ofParsedOffsets: [$0]) } ?? [], path: path,
            extensions: error.extensions)
    }
}
