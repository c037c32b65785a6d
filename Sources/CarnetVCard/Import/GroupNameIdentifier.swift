import CarnetStore

/// The identifier a group made by a CATEGORIES name alone gets: derived from its container and its name, so that
/// imports running at once (in one process or several, on one database) that each make the group of a new name
/// make the same one. The store takes the first and refuses the others' (`INSERTED_RECORD_ALREADY_EXISTS`), which
/// read the groups again and join it: one group of the name, as any order of the imports gives, where each made a
/// group of its own and left the book with several (an outside tester's find). A deleted group's identifier is never
/// reused, so a name whose group was deleted takes the next of its identifiers.
enum GroupNameIdentifier {
    /// Identifiers tried for one name before a random one: each needs a group of the name deleted (or renamed).
    static let candidates = 16

    /// The `attempt`th identifier of the group named `name` in `container`, byte for byte.
    static func make(container: String, name: ExactText, attempt: Int) -> String {
        var hash = ContentIdentifier.Hash()
        hash.add(container)
        // Swift keeps a string's bytes as given: "José" and "Jose\u{301}" are two names, as the store has them.
        hash.add(name.text)
        hash.add(String(attempt))
        return "group-" + ContentIdentifier.hex(hash.high) + ContentIdentifier.hex(hash.low)
    }

    /// For each name, its first identifier that no record holds or held (a name without one takes a random one),
    /// and whether any name's first was taken: by a group of the name made since the import read the groups, or
    /// by one deleted or renamed since.
    static func available(
        container: String, names: [ExactText], in store: any ContactStore
    ) async throws -> (identifiers: [ExactText: String], firstTaken: Bool) {
        var result: [ExactText: String] = [:]
        var firstTaken = false
        var pending = names
        for attempt in 0..<candidates where !pending.isEmpty {
            let tried = pending.map { ($0, make(container: container, name: $0, attempt: attempt)) }
            let taken = try await store.unavailableIdentifiers(tried.map(\.1))
            if attempt == 0, !taken.isEmpty { firstTaken = true }
            pending = []
            for (name, identifier) in tried {
                if taken.contains(identifier) { pending.append(name) } else { result[name] = identifier }
            }
        }
        return (result, firstTaken)
    }
}
