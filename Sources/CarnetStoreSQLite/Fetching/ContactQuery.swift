import CarnetStore
import GRDB

/// The SQL for a contact fetch.
///
/// A search predicate (name, email, phone, identifiers, group) drives the query through its index with a
/// `CROSS JOIN`, which SQLite never reorders, so a rare match is never found by walking the sort index.
/// Without one, the sort index is walked from the cursor.
struct ContactQuery {
    var sql: String
    var arguments: StatementArguments

    /// The column contacts sort by for a resolved (never `userDefault`) order.
    static func sortColumn(_ order: ContactSortOrder) -> String {
        switch order {
        case .givenName: "c.sortGiven"
        case .familyName: "c.sortFamily"
        case .none, .userDefault: "c.rowid"
        }
    }

    /// Refuses predicates no client needs and a database should not be asked (``ContactPredicate/validateLimits()``).
    static func validate(_ predicate: ContactPredicate) throws { try predicate.validateLimits() }

    /// The FROM and WHERE clauses for a predicate; `nil` when it can match nothing (an empty name query).
    static func filter(_ predicate: ContactPredicate, _ db: Database) throws
        -> (from: String, conditions: [String], arguments: StatementArguments)?
    {
        var predicate = predicate
        // The unified contacts' own conditions hold for the name-preferred members found (`c`) themselves.
        var standingFor: [ContactPredicate]?
        if case .standingForOthersMatching(let others) = predicate.linkedMembers {
            (standingFor, predicate) = (others.memberConditions, others.ownConditions)
        }
        var drivers: [(String, StatementArguments)] = []
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let name = predicate.matchingName {
            let words = TextFolding.queryWords(name)
            guard !words.isEmpty else { return nil }
            guard let match = try NameIndex.match(db, .family, words) else { return nil }
            drivers.append(
                (
                    "SELECT rowid & \(NameIndex.contactMask) AS r FROM contactNameFamily WHERE contactNameFamily MATCH ?",
                    [match]
                ))
        }
        if let email = predicate.matchingEmailAddress {
            guard let key = TextFolding.emailKey(email) else { return nil }
            drivers.append(
                (
                    "SELECT DISTINCT contactRowid AS r FROM labeledValue WHERE kind = ? AND searchKey = ?",
                    [MultiValueKind.emailAddresses.rawValue, key]
                ))
        }
        if let phone = predicate.matchingPhoneNumber {
            guard let key = TextFolding.phoneKey(phone) else { return nil }
            drivers.append(
                (
                    "SELECT DISTINCT contactRowid AS r FROM labeledValue WHERE kind = ? AND searchKey = ?",
                    [MultiValueKind.phoneNumbers.rawValue, key]
                ))
        }
        if let identifiers = predicate.identifiers {
            guard !identifiers.isEmpty else { return nil }
            let list = InList(identifiers)
            drivers.append(("SELECT rowid AS r FROM contact WHERE id IN (\(list.placeholders))", list.arguments))
        }
        if let group = predicate.groupIdentifier {
            drivers.append(
                (
                    "SELECT m.contactRowid AS r FROM groupMember m JOIN \"group\" g ON g.rowid = m.groupRowid WHERE g.id = ?",
                    [group]
                ))
        }
        if let container = predicate.containerIdentifier {
            conditions.append("c.containerRowid = (SELECT rowid FROM container WHERE id = ?)")
            arguments += [container]
        }
        switch predicate.linkedMembers {
        case .excluded: conditions.append("NOT c.linkHidden")
        // The former was taken apart above (own conditions hold no linked-member condition).
        case .standingForOthersMatching, nil: break
        }
        if let standingFor {
            // First: a later driver loses its " AS r", which the inner queries' own drivers need.
            guard let standing = try standingMembers(meeting: standingFor, db) else { return nil }
            drivers.insert(standing, at: 0)
        }
        guard let (driverSQL, driverArguments) = drivers.first else {
            return ("contact c", conditions, arguments)
        }
        var from = "(\(driverSQL)) d CROSS JOIN contact c ON c.rowid = d.r"
        var allArguments = driverArguments
        for (sql, extra) in drivers.dropFirst() {
            from += " AND c.rowid IN (\(sql.replacingOccurrences(of: " AS r", with: "")))"
            allArguments += extra
        }
        allArguments += arguments
        return (from, conditions, allArguments)
    }

    /// The name-preferred members of the unified contacts that meet each condition through one of their members
    /// (any, each its own), as a driver: from the unified contacts of the first (most selective) condition's
    /// matches, each checked against the others' unified contacts. `nil` when a condition can match nothing.
    private static func standingMembers(meeting memberConditions: [ContactPredicate], _ db: Database) throws
        -> (String, StatementArguments)?
    {
        var unifiedSets: [String] = []
        var arguments = StatementArguments()
        for condition in memberConditions {
            guard let inner = try filter(condition, db) else { return nil }
            let innerConditions =
                inner.conditions.isEmpty ? "" : " WHERE " + inner.conditions.joined(separator: " AND ")
            unifiedSets.append(
                """
                SELECT l.unifiedId FROM contactLink l
                WHERE l.contactRowid IN (SELECT c.rowid FROM \(inner.from)\(innerConditions))
                """)
            arguments += inner.arguments
        }
        guard let first = unifiedSets.first else {
            return ("SELECT contactRowid AS r FROM contactLink WHERE preferredForName", [])
        }
        let others = unifiedSets.dropFirst().map { " AND lp.unifiedId IN (\($0))" }.joined()
        return (
            """
            SELECT DISTINCT lp.contactRowid AS r FROM (\(first)) u
            CROSS JOIN contactLink lp ON lp.unifiedId = u.unifiedId AND lp.preferredForName\(others)
            """, arguments
        )
    }

    /// The predicate with its linked-member condition dropped when no contact is a hidden member (every book
    /// without links: its pages keep every fast path); `nil` when it then matches nothing.
    static func withoutNeedlessLinkCondition(_ predicate: ContactPredicate, _ db: Database) throws
        -> ContactPredicate?
    {
        guard let members = predicate.linkedMembers, try !LinkRows.hasHiddenMembers(db) else { return predicate }
        if members != .excluded { return nil }
        var plain = predicate
        plain.linkedMembers = nil
        return plain
    }

    /// How many contacts a filter matches. Every contact is the stored count (``Migration007``): a `count(*)` of
    /// the table cost a page of a large book more than the page itself.
    static func count(
        _ db: Database, _ filter: (from: String, conditions: [String], arguments: StatementArguments)
    ) throws -> Int {
        if filter.from == "contact c", filter.conditions.isEmpty { return try SaveTransaction.contactCount(db) }
        if filter.from == "contact c", filter.conditions == ["NOT c.linkHidden"] {
            return try SaveTransaction.contactCount(db) - LinkRows.hiddenMemberCount(db)
        }
        let conditions = filter.conditions.isEmpty ? "" : "WHERE " + filter.conditions.joined(separator: " AND ")
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM \(filter.from) \(conditions)"), arguments: filter.arguments)
            ?? 0
    }
}
