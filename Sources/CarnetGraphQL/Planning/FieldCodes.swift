/// Each object type's fields as a small integer enum, so writers switch on integers rather than compare names.
protocol FieldEnum: CaseIterable, RawRepresentable where RawValue == Int {}

enum QueryField: Int, FieldEnum {
    case node, contact, contacts, group, groups, container, containers, defaultContainer, changeHistory,
        currentHistoryToken, changeHistoryRetention, viewer, addressBooks, addressBook, principals,
        duplicateCandidates
}

enum PrincipalField: Int, FieldEnum { case id, name, kind, isAdmin, createdAt }

/// An address book's own fields, then those it shares with `Query` (``QueryField``'s, under the same names).
enum AddressBookField: Int, FieldEnum {
    case id, name, access, isDefault, sharedBy, createdAt, node, contact, contacts, group, groups, container,
        containers, defaultContainer, changeHistory, currentHistoryToken, changeHistoryRetention, duplicateCandidates

    /// The root field this one mirrors, for the book's store.
    var rootField: QueryField? { Self.rootFields[rawValue] }

    private static let rootFields: [QueryField?] = allCases.map { field in
        QueryField.allCases.first { "\($0)" == "\(field)" }
    }
}

enum MutationField: Int, FieldEnum {
    case save, importVCards, createAddressBook, renameAddressBook, deleteAddressBook, shareAddressBook,
        unshareAddressBook, createAccessToken, revokeAccessToken, createPrincipal, setPrincipalDisabled,
        deletePrincipal
}

enum CreatedAccessTokenField: Int, FieldEnum { case token, id, name, scopes }

enum VCardImportResultField: Int, FieldEnum {
    case added, updated, unchanged, groupsCreated, skipped, historyToken, warnings, groupCards, linked
}

enum VCardImportIssueField: Int, FieldEnum { case line, message, cardLine }

enum VCardImportWarningField: Int, FieldEnum { case line, cardLine, key, message }

enum SubscriptionField: Int, FieldEnum { case storeDidChange, changeHistory }

enum ContactField: Int, FieldEnum {
    case id, contactType, namePrefix, givenName, middleName, familyName, previousFamilyName, nameSuffix, nickname,
        phoneticGivenName, phoneticMiddleName, phoneticFamilyName, phoneticOrganizationName, organizationName,
        departmentName, jobTitle, note, birthday, nonGregorianBirthday, imageData, thumbnailImageData,
        imageDataAvailable, phoneNumbers, emailAddresses, postalAddresses, urlAddresses, dates, contactRelations,
        socialProfiles, instantMessageAddresses, vCardProperties, vCard, displayName, groups, container, isUnified,
        linkedContacts, revision, createdAt, modifiedAt
}

enum GroupField: Int, FieldEnum { case id, name, container, members, memberCount, revision, createdAt, modifiedAt }

enum ContainerField: Int, FieldEnum { case id, name, type, isDefault, createdAt }

enum ConnectionField: Int, FieldEnum { case edges, nodes, pageInfo, totalCount }

enum EdgeField: Int, FieldEnum { case cursor, node }

enum PageInfoField: Int, FieldEnum { case hasNextPage, hasPreviousPage, startCursor, endCursor }

enum DuplicateCandidateField: Int, FieldEnum { case contacts, score, reasons }

enum DuplicateReasonField: Int, FieldEnum { case kind, value }

enum LabeledField: Int, FieldEnum { case identifier, label, value }

enum PostalAddressField: Int, FieldEnum {
    case street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode
}

enum SocialProfileField: Int, FieldEnum { case urlString, username, userIdentifier, service }

enum InstantMessageAddressField: Int, FieldEnum { case username, service }

enum RelationField: Int, FieldEnum { case name }

enum DateComponentsField: Int, FieldEnum { case calendar, era, year, month, day, isLeapMonth }

enum HistoryPageField: Int, FieldEnum { case events, token, hasMore }

enum EventField: Int, FieldEnum { case author, contactId, contact, containerId, changedKeys, groupId, group, reason }

enum RetentionField: Int, FieldEnum { case retentionSeconds, oldestValidToken }

enum StoreChangeField: Int, FieldEnum { case historyToken, authors }

enum SaveResultField: Int, FieldEnum {
    case revision, historyToken, contacts, groups, deletedContactIds, deletedGroupIds
}

enum FieldCodes {
    private static func table<E: FieldEnum>(_: E.Type) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: E.allCases.map { ("\($0)", $0.rawValue) })
    }

    static let eventTypes = [
        "DropEverythingEvent", "AddContactEvent", "UpdateContactEvent", "DeleteContactEvent", "AddGroupEvent",
        "UpdateGroupEvent", "DeleteGroupEvent", "AddMemberToGroupEvent", "RemoveMemberFromGroupEvent",
    ]

    private static let tables: [String: [String: Int]] = {
        var tables: [String: [String: Int]] = [
            "Query": table(QueryField.self), "Mutation": table(MutationField.self),
            "Subscription": table(SubscriptionField.self), "Contact": table(ContactField.self),
            "Group": table(GroupField.self), "Container": table(ContainerField.self),
            "Principal": table(PrincipalField.self), "AddressBook": table(AddressBookField.self),
            "CreatedAccessToken": table(CreatedAccessTokenField.self),
            "ContactConnection": table(ConnectionField.self), "ContactEdge": table(EdgeField.self),
            "PageInfo": table(PageInfoField.self), "PostalAddress": table(PostalAddressField.self),
            "SocialProfile": table(SocialProfileField.self),
            "InstantMessageAddress": table(InstantMessageAddressField.self),
            "ContactRelation": table(RelationField.self), "DateComponents": table(DateComponentsField.self),
            "ChangeHistoryPage": table(HistoryPageField.self), "StoreChange": table(StoreChangeField.self),
            "SaveResult": table(SaveResultField.self), "VCardImportResult": table(VCardImportResultField.self),
            "VCardImportIssue": table(VCardImportIssueField.self),
            "VCardImportWarning": table(VCardImportWarningField.self),
            "ChangeHistoryRetention": table(RetentionField.self),
            "DuplicateCandidateConnection": table(ConnectionField.self),
            "DuplicateCandidateEdge": table(EdgeField.self),
            "DuplicateCandidate": table(DuplicateCandidateField.self),
            "DuplicateReason": table(DuplicateReasonField.self),
        ]
        for labeled in [
            "LabeledString", "LabeledPostalAddress", "LabeledDate", "LabeledRelation",
            "LabeledSocialProfile", "LabeledInstantMessageAddress",
        ] {
            tables[labeled] = table(LabeledField.self)
        }
        for event in eventTypes { tables[event] = table(EventField.self) }
        return tables
    }()

    /// The field's code in its type's enum, or -1.
    static func code(_ type: String, _ field: String) -> Int { tables[type]?[field] ?? -1 }
}
