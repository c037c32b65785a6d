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

    /// A principal's name as stored: validated, and composed (NFC), so that names that only differ in how an
    /// accent is encoded ("Zoë" precomposed and with a combining diaeresis, which look the same) are one name to
    /// the catalog's uniqueness, not two principals an operator cannot tell apart (an outside tester's find).
    package static func principalName(_ name: String) throws -> String {
        let composed = TextFolding.composed(name)
        try validate(composed, what: "principal")
        return composed
    }

    /// The refusal to delete the service's admin principal (the first admin, ``StoreBackend/admin()``): the service
    /// holds its default book open for its lifetime, so deleting it (a second admin could, through the API) waited
    /// for that book for ever, and held every later shutdown (an outside tester's find).
    package static func serviceAdminUndeletable(_ id: String) -> StoreError {
        StoreError(.forbidden, "The service's admin principal cannot be deleted.", affected: [id])
    }

    /// The spellings a principal named `name` may be stored under, in order: as given, then composed (names stored
    /// before composing kept their own spelling).
    package static func principalSpellings(_ name: String) -> [String] {
        let composed = TextFolding.composed(name)
        return composed.utf8.elementsEqual(name.utf8) ? [name] : [name, composed]
    }
}
