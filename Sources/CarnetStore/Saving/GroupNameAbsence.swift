/// A name that no group of a container may bear when a save adds a group of it (``SaveRequest/absentGroupNames``).
///
/// A vCard import that makes the group of a new name from a group card (under the card's UID) states it: two imports
/// at once that each make a group of one name would otherwise leave two, where either order of them leaves one (the
/// second finds the first's group by its name and joins it). The store checks it under its write lock, so the second
/// is refused, reads the groups again and joins. (Groups made by a CATEGORIES name alone need no such check: their
/// identifiers are derived from the name, and the store refuses the second add.)
package struct GroupNameAbsence: Sendable, Hashable {
    /// The container; `nil` for the default one.
    package var containerIdentifier: String?
    /// The name, byte for byte, as groups' names are compared.
    package var name: String

    package init(containerIdentifier: String?, name: String) {
        self.containerIdentifier = containerIdentifier
        self.name = name
    }

    /// The refusal when a group of the container bears the name. It names the container only: a group's name is
    /// contact data, which errors never carry.
    package func conflict(container: String) -> StoreError {
        StoreError(
            .conflict, "A group of this name was made in the container meanwhile; nothing was saved.",
            affected: [container], keyPaths: ["groups.name"])
    }

    /// The names a commit's requests state, each checked as the commit's first operation that adds a group of it
    /// runs: an operation before it may rename a group away from the name (an import that renames a group by its
    /// card's UID and makes a new group of the old name). Checked before every operation, such an import was
    /// refused on every try. By bytes, as names are compared.
    package struct Pending {
        private var names: [[UInt8]: GroupNameAbsence] = [:]

        package init(_ requests: [SaveRequest]) {
            for request in requests {
                for absence in request.absentGroupNames { names[Self.key(absence)] = absence }
            }
        }

        /// The name `operation` is the first to add a group of, taken out of those to check.
        package mutating func due(before operation: SaveOperation) -> GroupNameAbsence? {
            guard !names.isEmpty, case .addGroup(let group, let container) = operation else { return nil }
            return names.removeValue(
                forKey: Self.key(GroupNameAbsence(containerIdentifier: container, name: group.name)))
        }

        /// The names no operation added a group of, to check once the operations ran.
        package var remaining: [GroupNameAbsence] { Array(names.values) }

        private static func key(_ absence: GroupNameAbsence) -> [UInt8] {
            Array((absence.containerIdentifier ?? "").utf8) + [0] + Array(absence.name.utf8)
        }
    }

    /// Whether a save was refused for a name one of `absences` states.
    package static func refused(_ error: StoreError) -> Bool {
        error.code == .conflict && error.keyPaths == ["groups.name"]
    }
}
