import CarnetStore

extension Executor {
    /// The label as clients see it: the short name of a well-known label (`home`), or the custom text.
    static func publicLabel(_ label: String?) -> String? {
        label.map { ContactLabel.shortName(of: $0) ?? $0 }
    }

    /// Labeled strings (phones, emails, URLs): nothing in them can fail, so they are written straight; but for a
    /// selection set that could not be collected, which fails each of them (``labeled(_:_:_:)``).
    func labeledStrings(_ values: [LabeledValue<String>], _ plan: FieldPlan) -> Bool {
        let fields = plan.selection?.fields(for: "LabeledString") ?? []
        if fields.first?.collectionFailure != nil { return labeled(values, plan) { _, _ in true } }
        writer.rawKey(plan.quotedKey)
        writer.beginArray()
        for item in values {
            writer.comma()
            writer.beginObject()
            for sub in fields {
                writer.rawKey(sub.quotedKey)
                switch LabeledField(rawValue: sub.code) {
                case .identifier?: writer.string(item.identifier ?? "")
                case .label?:
                    if let label = Self.publicLabel(item.label) { writer.string(label) } else { writer.null() }
                case .value?: writer.string(item.value)
                case nil: writer.string("LabeledString")
                }
            }
            writer.endObject()
        }
        writer.endArray()
        return true
    }

    /// Writes a list of labeled values; `value` writes one value given its field plans.
    func labeled<V>(_ values: [LabeledValue<V>], _ plan: FieldPlan, _ value: @escaping (V, [FieldPlan]) -> Bool) -> Bool
    {
        let typeName = plan.type.namedType
        let fields = plan.selection?.fields(for: typeName) ?? []
        return field(plan) {
            list(values, plan) { item in
                writer.beginObject()
                for sub in fields {
                    switch LabeledField(rawValue: sub.code) {
                    case .identifier?: leaf(sub) { $0.string(item.identifier ?? "") }
                    case .label?:
                        leaf(sub) { writer in Self.publicLabel(item.label).map { writer.string($0) } ?? writer.null() }
                    case .value?:
                        guard field(sub, { value(item.value, sub.selection?.fields(for: sub.type.namedType) ?? []) })
                        else { return false }
                    case nil: guard otherField(sub, typeName) else { return false }
                    }
                }
                writer.endObject()
                return true
            }
        }
    }

    func writePostalAddress(_ address: PostalAddress, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch PostalAddressField(rawValue: plan.code) {
            case .street?: leaf(plan) { $0.string(address.street) }
            case .subLocality?: leaf(plan) { $0.string(address.subLocality) }
            case .city?: leaf(plan) { $0.string(address.city) }
            case .subAdministrativeArea?: leaf(plan) { $0.string(address.subAdministrativeArea) }
            case .state?: leaf(plan) { $0.string(address.state) }
            case .postalCode?: leaf(plan) { $0.string(address.postalCode) }
            case .country?: leaf(plan) { $0.string(address.country) }
            case .isoCountryCode?: leaf(plan) { $0.string(address.isoCountryCode) }
            case nil: guard otherField(plan, "PostalAddress") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    func writeDate(_ date: ContactDate, _ fields: [FieldPlan]) -> Bool { writeDateComponents(date, fields) }

    func writeDateComponents(_ date: ContactDate, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch DateComponentsField(rawValue: plan.code) {
            case .calendar?: leaf(plan) { $0.string(date.calendar) }
            case .era?: leaf(plan) { writer in date.era.map { writer.int($0) } ?? writer.null() }
            case .year?: leaf(plan) { writer in date.year.map { writer.int($0) } ?? writer.null() }
            case .month?: leaf(plan) { $0.int(date.month) }
            case .day?: leaf(plan) { $0.int(date.day) }
            case .isLeapMonth?: leaf(plan) { $0.bool(date.isLeapMonth) }
            case nil: guard otherField(plan, "DateComponents") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    func writeRelation(_ relation: ContactRelation, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            if RelationField(rawValue: plan.code) == .name {
                leaf(plan) { $0.string(relation.name) }
            } else {
                guard otherField(plan, "ContactRelation") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    func writeSocialProfile(_ profile: SocialProfile, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch SocialProfileField(rawValue: plan.code) {
            case .urlString?: leaf(plan) { $0.string(profile.urlString) }
            case .username?: leaf(plan) { $0.string(profile.username) }
            case .userIdentifier?: leaf(plan) { $0.string(profile.userIdentifier) }
            case .service?: leaf(plan) { $0.string(profile.service) }
            case nil: guard otherField(plan, "SocialProfile") else { return false }
            }
        }
        writer.endObject()
        return true
    }

    func writeInstantMessageAddress(_ address: InstantMessageAddress, _ fields: [FieldPlan]) -> Bool {
        writer.beginObject()
        for plan in fields {
            switch InstantMessageAddressField(rawValue: plan.code) {
            case .username?: leaf(plan) { $0.string(address.username) }
            case .service?: leaf(plan) { $0.string(address.service) }
            case nil: guard otherField(plan, "InstantMessageAddress") else { return false }
            }
        }
        writer.endObject()
        return true
    }
}
