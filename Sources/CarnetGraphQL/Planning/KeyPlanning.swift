import CarnetStore

/// Turns a selection on `Contact` into the store's keys to fetch: a query for `givenName` reads no phone numbers.
enum KeyPlanning {
    static let displayNameKeys: ContactKeySet = [
        .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .organizationName, .nickname,
    ]

    /// The keys each `Contact` field reads, by field code: what the planner fetches and what the writer checks
    /// before it reads. Built once: naming an enum case in a string goes through reflection, too slow for every
    /// request.
    static let fieldKeys: [ContactKeySet] = ContactField.allCases.map { code in
        switch code {
        case .id, .groups, .container, .isUnified, .linkedContacts, .revision, .createdAt, .modifiedAt: []
        case .displayName: displayNameKeys
        case .vCard: .all
        default: ContactKey(rawValue: String(describing: code)).map { [$0] } ?? []
        }
    }

    /// The keys the fields read.
    static func keys(_ fields: [FieldPlan]) -> ContactKeySet {
        var keys: ContactKeySet = []
        for plan in fields where plan.code >= 0 && plan.code < fieldKeys.count {
            keys.formUnion(fieldKeys[plan.code])
        }
        return keys
    }

    /// The keys for every `Contact` selection directly under these plans (for example `edges.node` and `nodes`
    /// of a connection, or `contact` of history events).
    static func keys(under plans: [FieldPlan], path: [String]) -> ContactKeySet {
        var keys: ContactKeySet = []
        for plan in plans where plan.name == path.first {
            guard let selection = plan.selection else { continue }
            if path.count == 1 {
                keys.formUnion(Self.keys(selection.fields(for: "Contact")))
            } else {
                keys.formUnion(Self.keys(under: selection.allFields, path: Array(path.dropFirst())))
            }
        }
        return keys
    }

    /// The `Contact` field plans under these plans along a path.
    static func contactFields(under plans: [FieldPlan], path: [String]) -> [FieldPlan] {
        fields(under: plans, path: path, type: "Contact")
    }

    /// The field plans for `type` reached from these plans along a path of field names (any alias).
    static func fields(under plans: [FieldPlan], path: [String], type: String) -> [FieldPlan] {
        var result: [FieldPlan] = []
        for plan in plans where plan.name == path.first {
            guard let selection = plan.selection else { continue }
            if path.count == 1 {
                result += selection.fields(for: type)
            } else {
                result += fields(under: selection.allFields, path: Array(path.dropFirst()), type: type)
            }
        }
        return result
    }
}
