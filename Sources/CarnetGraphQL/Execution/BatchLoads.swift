import CarnetStore

/// What an executor loads in batches before writing a selection (each contact's groups, the containers, groups'
/// members and counts), for one store: an address book's fields start from an empty set and the request's own
/// book gets its set back afterwards, so nothing of one book is looked up in another.
struct BatchLoads {
    var groupsByContact: [String: [Group]] = [:]
    /// The linked contacts of each contact (`Contact.linkedContacts`), by plan and then contact: a linked set's
    /// members are each other's linked contacts, so the same contact stands on every level of a nested selection,
    /// and each level fetched its own keys.
    var linkedByPlan: [Int: [String: [Contact]]] = [:]
    /// The members of each individual contact's linked set (none when it is linked to no other), whichever level
    /// of a nested selection looked it up first.
    var linkMembersByContact: [String: [String]] = [:]
    var containersByID: [String: Container]?
    var membersByPlan: [Int: [String: [Contact]]] = [:]
    var memberCounts: [String: Int] = [:]
    /// Fields whose batched load failed, by plan: each place the field appears reports the error at its path.
    var failedLoads: [Int: any Error] = [:]
}
