import CarnetStore
import Foundation

extension Executor {
    /// The request's principal; a single-store service has none.
    func requireViewer() throws -> GraphQLViewer {
        guard let viewer = context.viewer else {
            throw FieldError(
                message: "This service serves one address book and has no principals.", code: .operationNotAllowed)
        }
        return viewer
    }

    func writePrincipal(_ principal: Principal, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch PrincipalField(rawValue: plan.code) {
            case .id?: leaf(plan) { $0.string(principal.id) }
            case .name?: leaf(plan) { $0.string(principal.name) }
            case .kind?: leaf(plan) { $0.string(principal.kind == .user ? "USER" : "SERVICE") }
            case .isAdmin?: leaf(plan) { $0.bool(principal.isAdmin) }
            case .createdAt?: leaf(plan) { $0.string(DateFormatting.iso8601(principal.created)) }
            case nil: guard otherField(plan, "Principal") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    /// One of an address book's own fields (not those it shares with `Query`).
    func writeBookField(_ visible: VisibleBook, isDefault: Bool, _ plan: FieldPlan) -> Bool {
        switch AddressBookField(rawValue: plan.code) {
        case .id?: leaf(plan) { $0.string(visible.book.id) }
        case .name?: leaf(plan) { $0.string(visible.book.name) }
        case .access?: leaf(plan) { $0.string(Self.accessName(visible.access)) }
        case .isDefault?: leaf(plan) { $0.bool(isDefault) }
        case .sharedBy?:
            guard let sharer = visible.sharedBy else {
                leaf(plan) { $0.null() }
                return true
            }
            return field(plan) { writePrincipal(sharer, plan.selection?.fields(for: "Principal") ?? []) }
        case .createdAt?: leaf(plan) { $0.string(DateFormatting.iso8601(visible.book.created)) }
        case nil: guard otherField(plan, "AddressBook") else { return false }
        default: break
        }
        return true
    }

    static func accessName(_ access: BookAccess) -> String {
        switch access {
        case .read: "READ"
        case .readWrite: "READ_WRITE"
        case .owner: "OWNER"
        }
    }
}
