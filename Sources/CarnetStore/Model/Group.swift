import Foundation

/// A named set of contacts from one container (`CNGroup`).
public struct Group: Sendable, Hashable, Identifiable {
    /// Stable, never reused.
    public let identifier: String
    public var name: String
    /// The container of the group; its members come from the same container. `nil` before the first save.
    public package(set) var containerIdentifier: String?
    /// Changes with every committed change to the group, membership changes included.
    public package(set) var revision: Int64 = 0
    public package(set) var createdAt: Date?
    public package(set) var modifiedAt: Date?

    public var id: String { identifier }

    /// A new group to add with a save request, or the new state of an existing one for an update.
    public init(identifier: String = Contact.makeIdentifier(), name: String) {
        self.identifier = identifier
        self.name = name
    }
}
