/// What a mutation's answer may show a token without the `read` scope: what the mutation did (identifiers,
/// revisions, history tokens, counts, the books, grants and tokens it managed), never the book's contents. A
/// write-only token read every contact and the whole history through `renameAddressBook { contacts changeHistory }`
/// (an outside tester's find), and a save's `contacts` would show every key of any contact it names.
enum WriteOnlyAnswers {
    /// The fields each type may show such a token; `nil` for every field of the type. A type missing here shows
    /// nothing, so a type added to the schema is closed until it is listed.
    static let allowed: [String: Set<String>?] = [
        "Mutation": nil,
        "SaveResult": nil,
        "Contact": ["id", "revision"],
        "Group": ["id", "revision"],
        "VCardImportResult": nil,
        "VCardImportWarning": nil,
        "VCardImportIssue": nil,
        "AddressBook": ["id", "name", "access", "isDefault", "sharedBy", "createdAt"],
        "Principal": nil,
        "CreatedAccessToken": nil,
    ]

    /// The first field under `roots` (a mutation's planned root fields) that such a token may not select, with
    /// its path of response keys; `nil` when the whole answer is allowed. Walks the plan without recursion (its
    /// depth is the document's, which the limits bound, but a loop costs nothing more).
    static func firstRead(in roots: [FieldPlan]) -> (plan: FieldPlan, path: [String])? {
        // Children pushed in reverse, so the field reported is the first in the document's order.
        var pending: [(plan: FieldPlan, path: [String])] = roots.reversed().map { ($0, [$0.responseKey]) }
        while let (plan, path) = pending.popLast() {
            if plan.name != "__typename" {
                guard let fields = allowed[plan.objectType] else { return (plan, path) }
                if let fields, !fields.contains(plan.name) { return (plan, path) }
            }
            for field in (plan.selection?.allFields ?? []).reversed() {
                pending.append((field, path + [field.responseKey]))
            }
        }
        return nil
    }
}
