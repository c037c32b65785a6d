import CarnetStore
import CarnetVCard
import Foundation

extension Executor {
    /// Writes a contact's selected fields. Every key they read was fetched (``KeyPlanning``).
    func writeContact(_ contact: borrowing Contact, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            guard let code = ContactField(rawValue: plan.code) else {
                guard otherField(plan, "Contact") else { return false }
                continue
            }
            // The planner fetched these keys; should it ever not have, the field fails (and is logged) instead of
            // the read trapping, which would take down every connection with it.
            let needed = KeyPlanning.fieldKeys[code.rawValue]
            guard contact.areKeysAvailable(needed) else {
                let fault = ExecutionFault("Contact.\(plan.name) reads keys that were not fetched")
                guard field(plan, { throw fault }) else { return false }
                continue
            }
            switch code {
            case .id: leaf(plan) { $0.string(contact.identifier) }
            case .contactType: leaf(plan) { $0.string(contact.contactType == .person ? "PERSON" : "ORGANIZATION") }
            case .namePrefix: leaf(plan) { $0.string(contact.namePrefix) }
            case .givenName: leaf(plan) { $0.string(contact.givenName) }
            case .middleName: leaf(plan) { $0.string(contact.middleName) }
            case .familyName: leaf(plan) { $0.string(contact.familyName) }
            case .previousFamilyName: leaf(plan) { $0.string(contact.previousFamilyName) }
            case .nameSuffix: leaf(plan) { $0.string(contact.nameSuffix) }
            case .nickname: leaf(plan) { $0.string(contact.nickname) }
            case .phoneticGivenName: leaf(plan) { $0.string(contact.phoneticGivenName) }
            case .phoneticMiddleName: leaf(plan) { $0.string(contact.phoneticMiddleName) }
            case .phoneticFamilyName: leaf(plan) { $0.string(contact.phoneticFamilyName) }
            case .phoneticOrganizationName: leaf(plan) { $0.string(contact.phoneticOrganizationName) }
            case .organizationName: leaf(plan) { $0.string(contact.organizationName) }
            case .departmentName: leaf(plan) { $0.string(contact.departmentName) }
            case .jobTitle: leaf(plan) { $0.string(contact.jobTitle) }
            case .note: leaf(plan) { $0.string(contact.note) }
            case .birthday: guard optionalDate(contact.birthday, plan) else { return false }
            case .nonGregorianBirthday: guard optionalDate(contact.nonGregorianBirthday, plan) else { return false }
            case .imageData:
                leaf(plan) { writer in
                    contact.imageData.map { writer.string($0.base64EncodedString()) } ?? writer.null()
                }
            case .thumbnailImageData:
                leaf(plan) { writer in
                    contact.thumbnailImageData.map { writer.string($0.base64EncodedString()) } ?? writer.null()
                }
            case .imageDataAvailable: leaf(plan) { $0.bool(contact.imageDataAvailable) }
            case .phoneNumbers: guard labeledStrings(contact.phoneNumbers, plan) else { return false }
            case .emailAddresses: guard labeledStrings(contact.emailAddresses, plan) else { return false }
            case .urlAddresses: guard labeledStrings(contact.urlAddresses, plan) else { return false }
            case .postalAddresses:
                guard labeled(contact.postalAddresses, plan, { self.writePostalAddress($0, $1) }) else { return false }
            case .dates: guard labeled(contact.dates, plan, { self.writeDate($0, $1) }) else { return false }
            case .contactRelations:
                guard labeled(contact.contactRelations, plan, { self.writeRelation($0, $1) }) else { return false }
            case .socialProfiles:
                guard labeled(contact.socialProfiles, plan, { self.writeSocialProfile($0, $1) }) else { return false }
            case .instantMessageAddresses:
                guard labeled(contact.instantMessageAddresses, plan, { self.writeInstantMessageAddress($0, $1) }) else {
                    return false
                }
            case .vCardProperties:
                leaf(plan) { writer in
                    writer.beginArray()
                    for line in contact.vCardProperties {
                        writer.comma()
                        writer.string(line.value)
                    }
                    writer.endArray()
                }
            case .vCard:
                let version: VCardWriter.Version = args(plan).string("version") == "V4_0" ? .v4 : .v3
                let groups = loads.groupsByContact[contact.identifier] ?? []
                guard
                    field(
                        plan,
                        {
                            // A card costs real time (a thousand of them, tens of values each, ran seconds past the
                            // budget: an outside tester's find), so each is checked against it.
                            try checkWritingBudget()
                            let card = VCardExporter.card(
                                copy contact, groups: groups, writer: VCardWriter(version: version))
                            writer.string(card)
                            return true
                        })
                else { return false }
            case .displayName: leaf(plan) { $0.string(displayName(copy contact, plan)) }
            case .groups:
                let groups = loads.groupsByContact[contact.identifier] ?? []
                let sub = plan.selection?.fields(for: "Group") ?? []
                guard
                    field(
                        plan,
                        {
                            try admitNodes(groups.count)
                            return list(groups, plan) { writeGroup($0, sub) }
                        })
                else { return false }
            case .container:
                let containerID = contact.containerIdentifier
                guard field(plan, { try writeContainer(containerID: containerID, plan) }) else { return false }
            case .isUnified: leaf(plan) { $0.bool(contact.isUnified) }
            case .linkedContacts:
                let linked = loads.linkedByPlan[plan.id]?[contact.identifier] ?? []
                let sub = plan.selection?.fields(for: "Contact") ?? []
                guard
                    field(
                        plan,
                        {
                            try admitNodes(linked.count)
                            return list(linked, plan) { writeContact($0, sub) }
                        })
                else { return false }
            case .revision: leaf(plan) { $0.string(String(contact.revision)) }
            case .createdAt:
                leaf(plan) { $0.string(DateFormatting.iso8601(contact.createdAt ?? Date(timeIntervalSince1970: 0))) }
            case .modifiedAt:
                leaf(plan) { $0.string(DateFormatting.iso8601(contact.modifiedAt ?? Date(timeIntervalSince1970: 0))) }
            }
        }
        writer.endObject()
        return true
    }

    /// Writes `"key":` and a value that cannot fail.
    @inline(__always)
    func leaf(_ plan: FieldPlan, _ body: (inout JSONWriter) -> Void) {
        writer.rawKey(plan.quotedKey)
        body(&writer)
    }

    private func optionalDate(_ date: ContactDate?, _ plan: FieldPlan) -> Bool {
        guard let date else {
            leaf(plan) { $0.null() }
            return true
        }
        let sub = plan.selection?.fields(for: "DateComponents") ?? []
        return field(plan) { writeDateComponents(date, sub) }
    }

    /// The name to show, in the requested order; organization, then nickname, when there is no personal name.
    func displayName(_ contact: Contact, _ plan: FieldPlan) -> String {
        let requested = args(plan).string("order") ?? "USER_DEFAULT"
        let familyFirst =
            requested == "FAMILY_NAME_FIRST"
            || (requested == "USER_DEFAULT" && service.options.defaultDisplayNameOrder == .familyNameFirst)
        let names =
            familyFirst
            ? [contact.familyName, contact.givenName, contact.middleName]
            : [contact.givenName, contact.middleName, contact.familyName]
        let personal = names.filter { !$0.isEmpty }
        if !personal.isEmpty {
            return ([contact.namePrefix] + personal + [contact.nameSuffix]).filter { !$0.isEmpty }.joined(
                separator: " ")
        }
        if !contact.organizationName.isEmpty { return contact.organizationName }
        return contact.nickname
    }
}
