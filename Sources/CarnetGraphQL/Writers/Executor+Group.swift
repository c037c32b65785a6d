import CarnetStore
import Foundation

extension Executor {
    func writeGroup(_ group: Group, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            guard let code = GroupField(rawValue: plan.code) else {
                guard otherField(plan, "Group") else { return false }
                continue
            }
            switch code {
            case .id: leaf(plan) { $0.string(group.identifier) }
            case .name: leaf(plan) { $0.string(group.name) }
            case .container:
                guard field(plan, { try writeContainer(containerID: group.containerIdentifier, plan) }) else {
                    return false
                }
            case .members:
                let members = loads.membersByPlan[plan.id]?[group.identifier] ?? []
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard
                    field(
                        plan,
                        {
                            if let error = loads.failedLoads[plan.id] { throw error }
                            try admitNodes(members.count)
                            return list(members, plan) { writeContact($0, sub) }
                        })
                else { return false }
            case .memberCount: leaf(plan) { $0.int(loads.memberCounts[group.identifier] ?? 0) }
            case .revision: leaf(plan) { $0.string(String(group.revision)) }
            case .createdAt:
                leaf(plan) { $0.string(DateFormatting.iso8601(group.createdAt ?? Date(timeIntervalSince1970: 0))) }
            case .modifiedAt:
                leaf(plan) { $0.string(DateFormatting.iso8601(group.modifiedAt ?? Date(timeIntervalSince1970: 0))) }
            }
        }
        writer.endObject()
        return true
    }

    /// Writes the container with this identifier (from the preloaded containers).
    func writeContainer(containerID: String?, _ plan: FieldPlan) throws -> Bool {
        guard let containerID, let container = loads.containersByID?[containerID] else {
            throw FieldError(message: "The container is missing.", code: .internalServerError)
        }
        return writeContainer(container, plan.selection?.fields(for: "Container") ?? [])
    }

    func writeContainer(_ container: Container, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch ContainerField(rawValue: plan.code) {
            case .id?: leaf(plan) { $0.string(container.identifier) }
            case .name?: leaf(plan) { $0.string(container.name) }
            case .type?: leaf(plan) { $0.string(Self.containerType(container.type)) }
            case .isDefault?: leaf(plan) { $0.bool(container.isDefault) }
            case .createdAt?:
                leaf(plan) { $0.string(DateFormatting.iso8601(container.createdAt ?? Date(timeIntervalSince1970: 0))) }
            case nil: guard otherField(plan, "Container") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    static func containerType(_ type: ContainerType) -> String {
        switch type {
        case .unassigned: "UNASSIGNED"
        case .local: "LOCAL"
        case .exchange: "EXCHANGE"
        case .cardDAV: "CARD_DAV"
        }
    }
}
