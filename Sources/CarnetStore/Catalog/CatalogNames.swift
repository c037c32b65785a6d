/// The rule for names of principals and books, the same on every backend.
package enum CatalogNames {
    /// Names are what people type: 1 to 200 characters, not blank, no control characters.
    package static func validate(_ name: String, what: String) throws {
        guard !name.allSatisfy(\.isWhitespace), name.unicodeScalars.count <= 200,
            !name.unicodeScalars.contains(where: { $0.value < 0x20 })
        else {
            throw StoreError(
                .validationFailed, "A \(what)'s name is 1 to 200 characters without control characters.",
                keyPaths: ["name"])
        }
    }
}
