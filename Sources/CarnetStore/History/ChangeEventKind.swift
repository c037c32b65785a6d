/// The kinds of change history events, with their stored codes.
public enum ChangeEventKind: Int, Sendable, Hashable, CaseIterable {
    case dropEverything = 0
    case addContact = 1
    case updateContact = 2
    case deleteContact = 3
    case addGroup = 4
    case updateGroup = 5
    case deleteGroup = 6
    case addMemberToGroup = 7
    case removeMemberFromGroup = 8

    /// Whether the event is about groups or memberships (left out unless `includeGroupChanges`).
    public var isGroupChange: Bool { rawValue >= 4 }
}
