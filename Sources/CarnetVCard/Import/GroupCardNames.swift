/// What the file's group cards read so far say of names and UIDs, byte for byte: the name the last card with each
/// UID gives, and which cards give each name. CATEGORIES look a name up here before the container's groups, and
/// a group of the container whose identifier is a card's UID is that card's, whatever its name.
struct GroupCardNames {
    /// The line of the first group card with each UID, for the warning at a card that repeats it.
    private var firstLine: [ExactText: Int] = [:]
    /// The name the last group card with each UID gives.
    private var nameByUID: [ExactText: ExactText] = [:]
    /// The UIDs of the cards (the last with each UID) that give each name.
    private var uidsByName: [ExactText: Set<ExactText>] = [:]
    /// How many cards without a UID give each name: each stands for a group of its own.
    private var withoutUID: [ExactText: Int] = [:]

    /// What the file's group cards make of a name.
    enum Definition {
        /// No group card gives the name.
        case noCard
        /// One card does, with this UID (`nil`: a card without one).
        case oneCard(uid: String?)
        /// Several cards do: a name alone cannot tell their groups apart.
        case severalCards

        var isNoCard: Bool {
            if case .noCard = self { return true }
            return false
        }
    }

    /// Notes a group card; returns the line of the earlier card with its UID, which this one replaces.
    mutating func learn(_ card: VCardCard) -> Int? {
        let name = ExactText(Self.name(of: card))
        guard let uid = card.uid.map(ExactText.init) else {
            withoutUID[name, default: 0] += 1
            return nil
        }
        let earlier = firstLine[uid]
        if earlier == nil { firstLine[uid] = card.line }
        if let previous = nameByUID[uid] { uidsByName[previous]?.remove(uid) }
        nameByUID[uid] = name
        uidsByName[name, default: []].insert(uid)
        return earlier
    }

    /// How many cards give the name (a card without a UID counts on its own; cards with one UID count once).
    func definition(of name: ExactText) -> Definition {
        let uids = uidsByName[name] ?? []
        switch uids.count + (withoutUID[name] ?? 0) {
        case 0: return .noCard
        case 1: return .oneCard(uid: uids.first?.text)
        default: return .severalCards
        }
    }

    /// Whether some group card's UID is this identifier: that group is the card's, whatever its name now.
    func claims(_ identifier: String) -> Bool { nameByUID[ExactText(identifier)] != nil }

    /// The name a group card gives its group: its FN (else N), else its UID.
    static func name(of card: VCardCard) -> String {
        card.groupName.isEmpty ? (card.uid ?? "Group") : card.groupName
    }
}
