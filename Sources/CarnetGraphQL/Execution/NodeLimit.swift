/// Counts the records a query may return before it runs, in the style of GitHub's node limit: every list's
/// page size, multiplied by the page sizes of the lists above it, summed over the lists.
enum NodeLimit {
    /// Unpaged lists (groups, containers) count as this many records each.
    static let unpagedListEstimate = 10

    static func count(_ fields: [FieldPlan], multiplier: Int = 1, arguments: (FieldPlan) -> ArgumentValues) -> Int {
        var total = 0
        // Most selections page nothing (a contact by id): their fields' arguments need not be read at all.
        for field in fields where field.estimatesNodes {
            var inner = multiplier
            // Only a field that is itself a list has its arguments read.
            if let rule = sizeRule(field.name, on: field.objectType) {
                inner = saturating(multiplier, times: rule(arguments(field)))
                total = saturating(total, plus: inner)
            }
            if let selection = field.selection {
                // Concrete types of an interface are alternatives: count the largest.
                let branches = selection.byType.values.map { count($0, multiplier: inner, arguments: arguments) }
                total = saturating(total, plus: branches.max() ?? 0)
            }
        }
        return total
    }

    /// The fields that read the whole book (``GraphQLLimits/maxBookScans``) in `fields` and below. They are paged
    /// lists, so only the branches that estimate nodes are walked.
    static func bookScans(_ fields: [FieldPlan]) -> Int {
        var total = 0
        for field in fields where field.estimatesNodes {
            if field.name == "duplicateCandidates" { total += 1 }
            total += bookScans(field.selection?.allFields ?? [])
        }
        return total
    }

    /// Whether ``count(_:multiplier:arguments:)`` estimates a size for fields of this name.
    static func estimates(_ name: String, on objectType: String) -> Bool { sizeRule(name, on: objectType) != nil }

    private static func sizeRule(_ name: String, on objectType: String) -> ((ArgumentValues) -> Int)? {
        switch name {
        // A duplicate candidate's two contacts, not a page.
        case "contacts" where objectType == "DuplicateCandidate": { _ in 2 }
        case "contacts": { max(0, $0.int("first") ?? $0.int("last") ?? 100) }
        case "duplicateCandidates": { max(0, $0.int("first") ?? 100) }
        case "members": { max(0, $0.int("first") ?? 100) }
        case "changeHistory": { max(0, $0.int("first") ?? 1000) }
        case "groups", "containers": { _ in unpagedListEstimate }
        default: nil
        }
    }

    private static func saturating(_ a: Int, times b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }

    private static func saturating(_ a: Int, plus b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
