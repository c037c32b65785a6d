/// Why two contacts of a book are probably the same person.
///
/// The raw values are stable (they are the GraphQL enum's values); cases are declared in the order reasons of a
/// candidate are listed.
public enum DuplicateReasonKind: String, Sendable, Hashable, CaseIterable {
    /// Both have an email address with the same search key (``TextFolding/emailKey(_:)``, as email search).
    case emailAddress = "EMAIL_ADDRESS"
    /// Both have a phone number with the same search key (the national number, as phone search).
    case phoneNumber = "PHONE_NUMBER"
    /// The same folded given and family name, both non-empty; or, for two organization contacts, the same folded
    /// organization name.
    case fullName = "FULL_NAME"
    /// The same folded family name and the same folded organization name, both non-empty.
    case familyNameAndOrganization = "FAMILY_NAME_AND_ORGANIZATION"
    /// One's nickname is the other's given name, and both have the same non-empty family name (folded).
    case nickname = "NICKNAME"

    /// How much the reason adds to a candidate's score, in hundredths.
    ///
    /// The one table of weights: a shared email or phone number is strong evidence, a shared name weaker (two
    /// people may share one), a nickname weakest. Integers, so scores compare and page exactly.
    public var weightPoints: Int {
        switch self {
        case .emailAddress: 60
        case .phoneNumber: 50
        case .fullName: 40
        case .familyNameAndOrganization: 30
        case .nickname: 20
        }
    }

    /// The weight as a fraction: ``weightPoints`` / 100.
    public var weight: Double { Double(weightPoints) / 100 }
}

/// One piece of evidence: a reason and the folded key both contacts share.
public struct DuplicateReason: Sendable, Hashable, Comparable {
    public var kind: DuplicateReasonKind
    /// The shared key: the email's search key, the phone's digits, the folded `given family` or organization
    /// name, `family, organization`, or `name family` for a nickname.
    public var value: String

    public init(kind: DuplicateReasonKind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// The order reasons are listed in: by kind, in declaration order, then by value.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.kind != rhs.kind ? lhs.kind.rank < rhs.kind.rank : lhs.value < rhs.value
    }
}

extension DuplicateReasonKind {
    /// The score of a pair with the kinds `present` says it has: their weights summed, at most 100.
    static func scorePoints(where present: (Self) -> Bool) -> Int {
        min(100, allCases.reduce(0) { present($1) ? $0 + $1.weightPoints : $0 })
    }

    /// The position of the case in the declaration.
    var rank: Int {
        switch self {
        case .emailAddress: 0
        case .phoneNumber: 1
        case .fullName: 2
        case .familyNameAndOrganization: 3
        case .nickname: 4
        }
    }
}

/// Two contacts of one book that are probably the same person.
public struct DuplicateCandidate: Sendable, Hashable {
    /// The lower identifier of the two (identifiers compare as strings of `A-Z a-z 0-9 . _ : -`).
    public var firstIdentifier: String
    /// The higher identifier.
    public var secondIdentifier: String
    /// The shared keys, each once, in ``DuplicateReason``'s order: at most ``StoreLimits/duplicateReasonsPerKind``
    /// of a kind.
    public var reasons: [DuplicateReason]

    public init(firstIdentifier: String, secondIdentifier: String, reasons: [DuplicateReason]) {
        self.firstIdentifier = firstIdentifier
        self.secondIdentifier = secondIdentifier
        self.reasons = reasons
    }

    /// The score in hundredths: the weights of the distinct reason kinds, summed, at most 100. Two shared emails
    /// count once: the second adds a reason but no weight, so a handful of weak reasons cannot outrank a strong one.
    public var scorePoints: Int {
        let kinds = Set(reasons.map(\.kind))
        return DuplicateReasonKind.scorePoints(where: kinds.contains)
    }

    /// The score from 0 to 1: ``scorePoints`` / 100.
    public var score: Double { Double(scorePoints) / 100 }

    /// Both identifiers, lower first.
    public var identifiers: [String] { [firstIdentifier, secondIdentifier] }
}

/// A page request for ``ContactStore/duplicateCandidates(_:)``.
public struct DuplicateCandidateRequest: Sendable, Hashable {
    /// How many candidates, 1 to ``StoreLimits/pageSize``.
    public var first: Int
    /// A cursor from an earlier page: the candidates after it.
    public var after: String?

    public init(first: Int = 100, after: String? = nil) {
        self.first = first
        self.after = after
    }
}

/// A page of duplicate candidates, by score (highest first), then by the two identifiers.
public struct DuplicateCandidatePage: Sendable {
    public var candidates: [DuplicateCandidate]
    /// Whether more candidates follow this page.
    public var hasNextPage: Bool
    /// Whether the page started after a cursor.
    public var hasPreviousPage: Bool
    /// How many candidates the book has, on all pages.
    public var totalCount: Int

    public init(candidates: [DuplicateCandidate], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.candidates = candidates
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }

    /// The store the page comes from, which its cursors are bound to.
    package var storeID = ""

    /// The cursor of the candidate at `index`: pass it as `after` to continue after it.
    public func cursor(at index: Int) -> String { DuplicateCursor(candidates[index]).encoded(storeID: storeID) }
}
