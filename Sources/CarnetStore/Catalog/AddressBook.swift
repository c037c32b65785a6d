import Foundation

/// A whole Carnet store of its own (containers, groups, contacts, change history) owned by one principal.
public struct AddressBook: Sendable, Hashable, Identifiable {
    /// Stable and never reused.
    public let id: String
    public var name: String
    /// The owning principal's id.
    public var ownerID: String
    /// The book's database, relative to the data folder.
    public var created: Date

    public init(id: String, name: String, ownerID: String, created: Date = Date()) {
        self.id = id
        self.name = name
        self.ownerID = ownerID
        self.created = created
    }
}

/// What a principal may do with a book.
public enum BookAccess: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Read records, history and subscriptions.
    case read
    /// Also save and import.
    case readWrite
    /// Also rename, share and delete: the book's owner.
    case owner

    public var canWrite: Bool { self != .read }

    private var rank: Int {
        switch self {
        case .read: 0
        case .readWrite: 1
        case .owner: 2
        }
    }

    public static func < (lhs: BookAccess, rhs: BookAccess) -> Bool { lhs.rank < rhs.rank }
}

/// A book as one principal sees it: its access, and who shared it when it is not the principal's own.
public struct VisibleBook: Sendable, Hashable {
    public var book: AddressBook
    public var access: BookAccess
    /// The owner's principal, for a book shared with the viewer; `nil` for the viewer's own.
    public var sharedBy: Principal?

    public init(book: AddressBook, access: BookAccess, sharedBy: Principal?) {
        self.book = book
        self.access = access
        self.sharedBy = sharedBy
    }
}
