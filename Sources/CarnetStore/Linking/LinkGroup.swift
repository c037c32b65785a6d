/// The contacts linked into one unified contact (Apple's linked cards): the same person in several containers.
///
/// The unified contact has an identifier of its own, made when the first two contacts are linked. It stays while
/// members come and go and across restarts, and once the unified contact ends (unlinked down to one member, or
/// absorbed by another link) it is retired and never names anything again.
public struct LinkGroup: Sendable, Hashable {
    /// The unified contact's identifier.
    public var identifier: String
    /// The member contacts' identifiers, oldest first (the order they were added to the book).
    public var members: [String]
    /// The member whose name the unified contact shows and sorts by; it stands for the unified contact in pages.
    public var preferredForName: String
    /// The member whose image the unified contact shows when it has one.
    public var preferredForImage: String

    public init(identifier: String, members: [String], preferredForName: String, preferredForImage: String) {
        self.identifier = identifier
        self.members = members
        self.preferredForName = preferredForName
        self.preferredForImage = preferredForImage
    }

    /// The members in the order single values are taken from: the name-preferred member, then the others oldest
    /// first.
    public var valueOrder: [String] { [preferredForName] + members.filter { $0 != preferredForName } }

    /// Unified contacts from stored link rows (unified identifier, member, preferred for name, for image), ordered
    /// by unified identifier and then by the members' creation: how every backend reads them.
    package static func assembled(_ rows: some Sequence<(String, String, Bool, Bool)>) -> [LinkGroup] {
        var groups: [LinkGroup] = []
        for (unified, member, forName, forImage) in rows {
            if groups.last?.identifier != unified {
                groups.append(
                    LinkGroup(identifier: unified, members: [], preferredForName: member, preferredForImage: member))
            }
            groups[groups.count - 1].members.append(member)
            if forName { groups[groups.count - 1].preferredForName = member }
            if forImage { groups[groups.count - 1].preferredForImage = member }
        }
        return groups
    }
}
