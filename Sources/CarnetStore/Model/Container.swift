import Foundation

/// What kind of account a container stands for (`CNContainerType`).
public enum ContainerType: Int, Sendable, Hashable, Codable, CaseIterable {
    case unassigned = 0
    case local = 1
    case exchange = 2
    case cardDAV = 3
}

/// An account that holds contacts and groups (`CNContainer`). Every contact and group is in exactly one.
public struct Container: Sendable, Hashable, Identifiable {
    public let identifier: String
    public var name: String
    public var type: ContainerType
    /// Whether this is the store's default container, where contacts added without a container go.
    public package(set) var isDefault: Bool = false
    public package(set) var revision: Int64 = 0
    public package(set) var createdAt: Date?
    public package(set) var modifiedAt: Date?

    public var id: String { identifier }

    public init(identifier: String = Contact.makeIdentifier(), name: String, type: ContainerType) {
        self.identifier = identifier
        self.name = name
        self.type = type
    }
}
