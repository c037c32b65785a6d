extension CarnetSchema {
    /// Records, values, inputs, events, enums and scalars.
    static let typesSDL = #"""
        """
        A person or an organization, with every key of the Contacts framework.
        """
        type Contact implements Node {
          "The stable identifier; never reused."
          id: ID!

          "Whether this is a person or an organization."
          contactType: ContactType!

          "The name prefix, such as \"Dr.\"; empty when none."
          namePrefix: String!

          "The given name; empty when none."
          givenName: String!

          "The middle name; empty when none."
          middleName: String!

          "The family name; empty when none."
          familyName: String!

          "The previous family name, such as a maiden name; empty when none."
          previousFamilyName: String!

          "The name suffix, such as \"Jr.\"; empty when none."
          nameSuffix: String!

          "The nickname; empty when none."
          nickname: String!

          "How the given name is pronounced; empty when none."
          phoneticGivenName: String!

          "How the middle name is pronounced; empty when none."
          phoneticMiddleName: String!

          "How the family name is pronounced; empty when none."
          phoneticFamilyName: String!

          "How the organization name is pronounced; empty when none."
          phoneticOrganizationName: String!

          "The organization (company) name; empty when none."
          organizationName: String!

          "The department within the organization; empty when none."
          departmentName: String!

          "The job title; empty when none."
          jobTitle: String!

          "A free-form note (tabs and line breaks allowed); empty when none."
          note: String!

          "The birthday (Gregorian); the year may be absent."
          birthday: DateComponents

          "The birthday in another calendar (Hebrew, Chinese, Islamic, ...)."
          nonGregorianBirthday: DateComponents

          "The full-size image, base64-encoded."
          imageData: Base64

          "The thumbnail image, base64-encoded."
          thumbnailImageData: Base64

          "Whether the contact has an image (cheap: reads no image)."
          imageDataAvailable: Boolean!

          "Phone numbers, as typed."
          phoneNumbers: [LabeledString!]!

          "Email addresses."
          emailAddresses: [LabeledString!]!

          "Postal addresses."
          postalAddresses: [LabeledPostalAddress!]!

          "Web addresses."
          urlAddresses: [LabeledString!]!

          "Dates worth remembering, such as anniversaries."
          dates: [LabeledDate!]!

          "Related people, labeled with the relation (spouse, mother, ...)."
          contactRelations: [LabeledRelation!]!

          "Social network profiles."
          socialProfiles: [LabeledSocialProfile!]!

          "Instant messaging addresses."
          instantMessageAddresses: [LabeledInstantMessageAddress!]!

          "vCard properties with no field of their own, kept as imported (unfolded lines) and written back on export."
          vCardProperties: [String!]!

          "The contact as a vCard, with its groups as CATEGORIES (reads every key of the contact)."
          vCard(
            "vCard 3.0 (read best by Apple, Google and CardDAV clients) or 4.0."
            version: VCardVersion = V3_0
          ): String!

          """
          The name to show: the personal name (prefix, names, suffix) in the chosen order, else the organization
          name, else the nickname; empty when none.
          """
          displayName(
            "Given name first or family name first."
            order: DisplayNameOrder = USER_DEFAULT
          ): String!

          "The groups the contact belongs to, by name."
          groups: [Group!]!

          "The container (account) the contact belongs to."
          container: Container!

          "Changes with every committed change to the contact; pass it back as `baseRevision` to merge."
          revision: String!

          "When the contact was added."
          createdAt: DateTime!

          "When the contact last changed."
          modifiedAt: DateTime!
        }

        """
        A page of contacts (a Relay connection).
        """
        type ContactConnection {
          "The contacts with their cursors."
          edges: [ContactEdge!]!

          "The contacts alone."
          nodes: [Contact!]!

          "Where this page stands."
          pageInfo: PageInfo!

          "How many contacts match the filter, on all pages."
          totalCount: Int!
        }

        """
        A contact in a page, with its cursor.
        """
        type ContactEdge {
          "Pass it as `after` or `before` to continue from this contact."
          cursor: String!

          "The contact."
          node: Contact!
        }

        """
        Where a page stands in the whole list.
        """
        type PageInfo {
          "Whether more contacts follow this page."
          hasNextPage: Boolean!

          "Whether contacts come before this page."
          hasPreviousPage: Boolean!

          "The cursor of the first contact of the page; null for an empty page."
          startCursor: String

          "The cursor of the last contact of the page; null for an empty page."
          endCursor: String
        }

        """
        Conditions a contact must all meet.
        """
        input ContactFilter {
          "Every word must prefix-match a word of a name (given, middle, family, previous family, nickname, organization, phonetic), ignoring case and accents."
          name: String

          "An email address, matched exactly but ignoring case."
          email: String

          "A phone number, matched ignoring formatting (the last ten digits compare)."
          phone: String

          "Only these contacts (at most 1000)."
          ids: [ID!]

          "Only members of this group."
          groupId: ID

          "Only contacts of this container."
          containerId: ID
        }

        """
        A named set of contacts from one container.
        """
        type Group implements Node {
          "The stable identifier; never reused."
          id: ID!

          "The group's name."
          name: String!

          "The container the group and its members belong to."
          container: Container!

          "The members, in a sort order."
          members(
            "The order of the members."
            sortOrder: ContactSortOrder = USER_DEFAULT

            "The most members to return, from 1 to 1000."
            first: Int = 100
          ): [Contact!]!

          "How many members the group has."
          memberCount: Int!

          "Changes with every committed change to the group, membership changes included."
          revision: String!

          "When the group was added."
          createdAt: DateTime!

          "When the group last changed."
          modifiedAt: DateTime!
        }

        """
        An account that holds contacts and groups.
        """
        type Container implements Node {
          "The stable identifier; never reused."
          id: ID!

          "The container's name."
          name: String!

          "The kind of account."
          type: ContainerType!

          "Whether records saved without a container go here."
          isDefault: Boolean!

          "When the container was added."
          createdAt: DateTime!
        }

        """
        A record with a global identifier.
        """
        interface Node {
          "The record's identifier, unique across contacts, groups and containers."
          id: ID!
        }

        """
        A labeled text value: a phone number, email address or URL.
        """
        type LabeledString {
          "The value's stable identifier; pass it back in updates to keep the value's identity."
          identifier: ID!

          "A well-known label (home, work, school, other, mobile, iPhone, main, homeFax, workFax, otherFax, pager, appleWatch, iCloud, homePage, ...) or any custom text; null for none."
          label: String

          "The value."
          value: String!
        }

        """
        A labeled postal address.
        """
        type LabeledPostalAddress {
          "The value's stable identifier."
          identifier: ID!

          "A well-known label (home, work, school, other) or any custom text; null for none."
          label: String

          "The address."
          value: PostalAddress!
        }

        """
        A labeled date.
        """
        type LabeledDate {
          "The value's stable identifier."
          identifier: ID!

          "A well-known label (anniversary, other) or any custom text; null for none."
          label: String

          "The date."
          value: DateComponents!
        }

        """
        A labeled related person.
        """
        type LabeledRelation {
          "The value's stable identifier."
          identifier: ID!

          "The relation (father, mother, spouse, partner, child, friend, assistant, manager, ...) or any custom text; null for none."
          label: String

          "The related person."
          value: ContactRelation!
        }

        """
        A labeled social network profile.
        """
        type LabeledSocialProfile {
          "The value's stable identifier."
          identifier: ID!

          "A well-known label (home, work, other) or any custom text; null for none."
          label: String

          "The profile."
          value: SocialProfile!
        }

        """
        A labeled instant messaging address.
        """
        type LabeledInstantMessageAddress {
          "The value's stable identifier."
          identifier: ID!

          "A well-known label (home, work, other) or any custom text; null for none."
          label: String

          "The address."
          value: InstantMessageAddress!
        }

        """
        A structured postal address; absent parts are empty.
        """
        type PostalAddress {
          "The street, possibly several lines."
          street: String!

          "The neighborhood or district."
          subLocality: String!

          "The city."
          city: String!

          "The county or region below the state."
          subAdministrativeArea: String!

          "The state or province."
          state: String!

          "The postal code."
          postalCode: String!

          "The country name."
          country: String!

          "The ISO 3166-1 country code."
          isoCountryCode: String!
        }

        """
        A social network profile.
        """
        type SocialProfile {
          "The profile's URL."
          urlString: String!

          "The user name."
          username: String!

          "The service's identifier for the user."
          userIdentifier: String!

          "The service (Twitter, LinkedIn, Facebook, ...)."
          service: String!
        }

        """
        An instant messaging address.
        """
        type InstantMessageAddress {
          "The user name."
          username: String!

          "The service (Skype, Jabber, QQ, ...)."
          service: String!
        }

        """
        A related person.
        """
        type ContactRelation {
          "The person's name."
          name: String!
        }

        """
        Date components: a month and day, an optional year, in a calendar.
        """
        type DateComponents {
          "The calendar: gregorian, hebrew, chinese, islamic, ... (Foundation's identifiers)."
          calendar: String!

          "The era, for calendars that have several."
          era: Int

          "The year; null when unknown."
          year: Int

          "The month, from 1."
          month: Int!

          "The day of the month, from 1."
          day: Int!

          "Whether the month is a leap month (Chinese calendar)."
          isLeapMonth: Boolean!
        }

        """
        A group of changes from the change history.
        """
        type ChangeHistoryPage {
          "The events, coalesced per record, oldest first."
          events: [ChangeEvent!]!

          """
          Where this page ends: fetch the next page, or later changes, from here. Store it together with what the
          events produced, in one step: it covers exactly the events applied.
          """
          token: String!

          """
          Whether more events are waiting now: fetch again from `token` right away. A page may hold fewer events
          than asked for, even none, and still have more (a page stops at a budget of history read, and events
          about records deleted since are left out).
          """
          hasMore: Boolean!
        }

        """
        A change history event.
        """
        interface ChangeEvent {
          "The transaction author of the save behind the event; null for none and for full-sync events."
          author: String
        }

        """
        The client must drop its copy of the data: a full sync follows (an add event for every record, over as
        many pages as it takes). It comes first in a page, and only when the token could not continue the replica.
        """
        type DropEverythingEvent implements ChangeEvent {
          "Always null."
          author: String

          "Why the token could not continue the replica."
          reason: DropEverythingReason!
        }

        """
        Why a change history fetch starts a full sync.
        """
        enum DropEverythingReason {
          "No token was given: the client's first sync."
          NO_TOKEN

          "The token is not one this server wrote (damaged or made up)."
          MALFORMED_TOKEN

          "The token belongs to another store (the data was replaced, or the client talks to another server)."
          OTHER_STORE

          "The history after the token was compacted: the client synced last longer ago than the retention period."
          EXPIRED_TOKEN

          "The token is ahead of the store's history: the store was restored from an earlier backup."
          TOKEN_AHEAD
        }

        """
        How long change history is kept, so a sync client can tell when its token would expire.
        """
        type ChangeHistoryRetention {
          """
          How long history is kept, in seconds. A token stays valid for at least this long after the page that
          returned it; a client that syncs less often gets DropEverythingEvent (EXPIRED_TOKEN) and a full sync.
          """
          retentionSeconds: Int!

          "The oldest token that still continues a replica; history before it was compacted."
          oldestValidToken: String!
        }

        """
        A contact was added.
        """
        type AddContactEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The contact's identifier."
          contactId: ID!

          "The contact as it is now."
          contact: Contact!

          "The container it was added to."
          containerId: ID!
        }

        """
        A contact changed.
        """
        type UpdateContactEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The contact's identifier."
          contactId: ID!

          "The contact as it is now."
          contact: Contact!

          "The Contact fields that changed."
          changedKeys: [String!]!
        }

        """
        A contact was deleted.
        """
        type DeleteContactEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The deleted contact's identifier."
          contactId: ID!
        }

        """
        A group was added.
        """
        type AddGroupEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The group's identifier."
          groupId: ID!

          "The group as it is now."
          group: Group!

          "The container it was added to."
          containerId: ID!
        }

        """
        A group was renamed.
        """
        type UpdateGroupEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The group's identifier."
          groupId: ID!

          "The group as it is now."
          group: Group!
        }

        """
        A group was deleted.
        """
        type DeleteGroupEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The deleted group's identifier."
          groupId: ID!
        }

        """
        A contact joined a group.
        """
        type AddMemberToGroupEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The member's identifier."
          contactId: ID!

          "The group's identifier."
          groupId: ID!
        }

        """
        A contact left a group.
        """
        type RemoveMemberFromGroupEvent implements ChangeEvent {
          "The transaction author."
          author: String

          "The former member's identifier."
          contactId: ID!

          "The group's identifier."
          groupId: ID!
        }

        """
        A commit happened.
        """
        type StoreChange {
          "The history token after the commit."
          historyToken: String!

          "The transaction authors of the commits this covers (null for a save without one)."
          authors: [String]!
        }

        """
        One atomic batch of changes.
        """
        input SaveRequestInput {
          "Who makes the change; recorded with the history events (your token may restrict it)."
          transactionAuthor: String

          "The operations, run in order; a contact added by one can join a group in a later one."
          operations: [SaveOperationInput!]!
        }

        """
        One operation of a save request: set exactly one field.
        """
        input SaveOperationInput @oneOf {
          "Add a contact."
          addContact: AddContactInput

          "Change some keys of a contact."
          updateContact: UpdateContactInput

          "Delete the contact with this identifier."
          deleteContact: ID

          "Add a group."
          addGroup: AddGroupInput

          "Rename a group."
          updateGroup: UpdateGroupInput

          "Delete the group with this identifier (its members stay)."
          deleteGroup: ID

          "Add a contact to a group of the same container."
          addMember: MembershipInput

          "Remove a contact from a group."
          removeMember: MembershipInput
        }

        """
        A new contact.
        """
        input AddContactInput {
          "An identifier for the new contact (letters, digits, . _ : -); a fresh one when absent. Never one in use or used before."
          id: ID

          "The container to add to; the default container when absent."
          containerId: ID

          "Person or organization (person when absent)."
          contactType: ContactType

          "The value; absent or null for none."
          namePrefix: String

          "The value; absent or null for none."
          givenName: String

          "The value; absent or null for none."
          middleName: String

          "The value; absent or null for none."
          familyName: String

          "The value; absent or null for none."
          previousFamilyName: String

          "The value; absent or null for none."
          nameSuffix: String

          "The value; absent or null for none."
          nickname: String

          "The value; absent or null for none."
          phoneticGivenName: String

          "The value; absent or null for none."
          phoneticMiddleName: String

          "The value; absent or null for none."
          phoneticFamilyName: String

          "The value; absent or null for none."
          phoneticOrganizationName: String

          "The value; absent or null for none."
          organizationName: String

          "The value; absent or null for none."
          departmentName: String

          "The value; absent or null for none."
          jobTitle: String

          "The value; absent or null for none."
          note: String

          "The value; absent or null for none."
          birthday: DateComponentsInput

          "The value; absent or null for none."
          nonGregorianBirthday: DateComponentsInput

          "The value; absent or null for none (base64)."
          imageData: Base64

          "The value; absent or null for none (base64)."
          thumbnailImageData: Base64

          "The values, in order."
          phoneNumbers: [LabeledStringInput!]

          "The values, in order."
          emailAddresses: [LabeledStringInput!]

          "The values, in order."
          postalAddresses: [LabeledPostalAddressInput!]

          "The values, in order."
          urlAddresses: [LabeledStringInput!]

          "The values, in order."
          dates: [LabeledDateInput!]

          "The values, in order."
          contactRelations: [LabeledRelationInput!]

          "The values, in order."
          socialProfiles: [LabeledSocialProfileInput!]

          "The values, in order."
          instantMessageAddresses: [LabeledInstantMessageAddressInput!]

          "vCard properties with no field of their own (unfolded lines), written back on export."
          vCardProperties: [String!]
        }

        """
        A change to some keys of a contact: only the fields given change.
        """
        input UpdateContactInput {
          "The contact to update."
          id: ID!

          """
          The revision the client read. When given and the contact changed since, the save merges if none of the
          keys (for lists: none of the values) this update touches changed since, and fails with CONFLICT otherwise.
          When absent, the last writer wins.
          """
          baseRevision: String

          "Person or organization (absent leaves it unchanged)."
          contactType: ContactType

          "The new value; null clears it."
          namePrefix: String

          "The new value; null clears it."
          givenName: String

          "The new value; null clears it."
          middleName: String

          "The new value; null clears it."
          familyName: String

          "The new value; null clears it."
          previousFamilyName: String

          "The new value; null clears it."
          nameSuffix: String

          "The new value; null clears it."
          nickname: String

          "The new value; null clears it."
          phoneticGivenName: String

          "The new value; null clears it."
          phoneticMiddleName: String

          "The new value; null clears it."
          phoneticFamilyName: String

          "The new value; null clears it."
          phoneticOrganizationName: String

          "The new value; null clears it."
          organizationName: String

          "The new value; null clears it."
          departmentName: String

          "The new value; null clears it."
          jobTitle: String

          "The new value; null clears it."
          note: String

          "The new value; null clears it."
          birthday: DateComponentsInput

          "The new value; null clears it."
          nonGregorianBirthday: DateComponentsInput

          "The new value; null clears it (base64)."
          imageData: Base64

          "The new value; null clears it (base64)."
          thumbnailImageData: Base64

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          phoneNumbers: [LabeledStringInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          emailAddresses: [LabeledStringInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          postalAddresses: [LabeledPostalAddressInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          urlAddresses: [LabeledStringInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          dates: [LabeledDateInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          contactRelations: [LabeledRelationInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          socialProfiles: [LabeledSocialProfileInput!]

          "The new list (replaces the old one): values carrying an `identifier` keep it, others are new, values left out are removed."
          instantMessageAddresses: [LabeledInstantMessageAddressInput!]

          "vCard properties with no field of their own (unfolded lines), written back on export."
          vCardProperties: [String!]
        }

        """
        A new group.
        """
        input AddGroupInput {
          "An identifier for the new group; a fresh one when absent."
          id: ID

          "The container to add to; the default container when absent."
          containerId: ID

          "The group's name."
          name: String!
        }

        """
        A group's new name.
        """
        input UpdateGroupInput {
          "The group to rename."
          id: ID!

          "The revision the client read; the save fails with CONFLICT if the name changed since."
          baseRevision: String

          "The new name."
          name: String!
        }

        """
        A contact and a group.
        """
        input MembershipInput {
          "The contact."
          contactId: ID!

          "The group."
          groupId: ID!
        }

        """
        A labeled text value to save.
        """
        input LabeledStringInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "A well-known label (home, work, mobile, ...) or custom text."
          label: String

          "The value."
          value: String!
        }

        """
        A labeled postal address to save.
        """
        input LabeledPostalAddressInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "A well-known label or custom text."
          label: String

          "The address."
          value: PostalAddressInput!
        }

        """
        A labeled date to save.
        """
        input LabeledDateInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "A well-known label or custom text."
          label: String

          "The date."
          value: DateComponentsInput!
        }

        """
        A labeled related person to save.
        """
        input LabeledRelationInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "The relation (spouse, mother, ...) or custom text."
          label: String

          "The related person."
          value: ContactRelationInput!
        }

        """
        A labeled social profile to save.
        """
        input LabeledSocialProfileInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "A well-known label or custom text."
          label: String

          "The profile."
          value: SocialProfileInput!
        }

        """
        A labeled instant messaging address to save.
        """
        input LabeledInstantMessageAddressInput {
          "The identifier of the contact's existing value this replaces; absent for a new value."
          identifier: ID

          "A well-known label or custom text."
          label: String

          "The address."
          value: InstantMessageAddressInput!
        }

        """
        A postal address to save; absent parts are empty.
        """
        input PostalAddressInput {
          "The street, possibly several lines."
          street: String = ""

          "The neighborhood or district."
          subLocality: String = ""

          "The city."
          city: String = ""

          "The county or region below the state."
          subAdministrativeArea: String = ""

          "The state or province."
          state: String = ""

          "The postal code."
          postalCode: String = ""

          "The country name."
          country: String = ""

          "The ISO 3166-1 country code."
          isoCountryCode: String = ""
        }

        """
        A social profile to save.
        """
        input SocialProfileInput {
          "The profile's URL."
          urlString: String = ""

          "The user name."
          username: String = ""

          "The service's identifier for the user."
          userIdentifier: String = ""

          "The service."
          service: String = ""
        }

        """
        An instant messaging address to save.
        """
        input InstantMessageAddressInput {
          "The user name."
          username: String!

          "The service."
          service: String = ""
        }

        """
        A related person to save.
        """
        input ContactRelationInput {
          "The person's name."
          name: String!
        }

        """
        Date components to save: month and day required, year optional.
        """
        input DateComponentsInput {
          "The calendar (gregorian unless given)."
          calendar: String = "gregorian"

          "The era, for calendars that have several."
          era: Int

          "The year; absent when unknown."
          year: Int

          "The month, from 1."
          month: Int!

          "The day of the month, from 1."
          day: Int!

          "Whether the month is a leap month (Chinese calendar)."
          isLeapMonth: Boolean = false
        }

        """
        What a save did.
        """
        type SaveResult {
          "The revision of the commit; null when nothing changed."
          revision: String

          "The history token after the save."
          historyToken: String!

          "The contacts the save added or updated, in operation order."
          contacts: [Contact!]!

          "The groups the save added, updated or changed the members of, in operation order."
          groups: [Group!]!

          "The identifiers of the contacts it deleted."
          deletedContactIds: [ID!]!

          "The identifiers of the groups it deleted."
          deletedGroupIds: [ID!]!
        }

        """
        What an import of vCards did.
        """
        type VCardImportResult {
          "Cards added as new contacts."
          added: Int!

          "Cards whose UID named a contact, which they changed."
          updated: Int!

          "Cards whose UID named a contact they did not change."
          unchanged: Int!

          "Groups created from CATEGORIES."
          groupsCreated: Int!

          "The cards skipped, with why."
          skipped: [VCardImportIssue!]!

          "The history token after the import."
          historyToken: String!
        }

        """
        A card an import skipped.
        """
        type VCardImportIssue {
          "The line of the text at fault (1-based)."
          line: Int!

          "Why the card was skipped."
          message: String!
        }

        """
        A vCard version Carnet writes.
        """
        enum VCardVersion {
          "vCard 3.0 (RFC 2426)."
          V3_0

          "vCard 4.0 (RFC 6350)."
          V4_0
        }

        """
        Person or organization.
        """
        enum ContactType {
          "A person."
          PERSON

          "An organization."
          ORGANIZATION
        }

        """
        The order of contacts. Names compare ignoring case and accents; a contact without a personal name sorts by organization; ties break by identifier.
        """
        enum ContactSortOrder {
          "Creation order."
          NONE

          "The store's setting (family name unless changed)."
          USER_DEFAULT

          "By given name, then family name."
          GIVEN_NAME

          "By family name, then given name."
          FAMILY_NAME
        }

        """
        The order of the parts of a displayed name.
        """
        enum DisplayNameOrder {
          "The server's setting (given name first unless changed)."
          USER_DEFAULT

          "Given name, middle name, family name."
          GIVEN_NAME_FIRST

          "Family name, given name, middle name."
          FAMILY_NAME_FIRST
        }

        """
        The kind of account a container stands for.
        """
        enum ContainerType {
          "Not assigned."
          UNASSIGNED

          "Stored here only."
          LOCAL

          "An Exchange account."
          EXCHANGE

          "A CardDAV account."
          CARD_DAV
        }

        """
        An instant in UTC, ISO 8601 with milliseconds: 2026-11-22T02:49:34.123Z.
        """
        scalar DateTime

        """
        Bytes, base64-encoded (RFC 4648, with padding).
        """
        scalar Base64

        """#
}
