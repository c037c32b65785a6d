import CarnetGraphQL
import CarnetGraphQLReference
import CarnetStore
import Foundation
import GraphQL
import Testing

/// Carnet's executor against GraphQLSwift's reference executor with plain resolvers over the same store: on a
/// corpus of hand-written and generated operations the responses must be equal (as JSON values: same data, same
/// error paths).
@Suite("Differential: Carnet's executor vs the reference executor")
struct DifferentialTests {
    static let handWritten: [(String, [String: JSONValue])] = [
        (
            "{ contacts(first: 100, sortOrder: FAMILY_NAME) { totalCount edges { cursor node { id givenName familyName displayName } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }",
            [:]
        ),
        (
            "{ contacts(first: 3, sortOrder: GIVEN_NAME) { nodes { ...Everything } } } fragment Everything on Contact { __typename id contactType namePrefix givenName middleName familyName previousFamilyName nameSuffix nickname phoneticGivenName phoneticMiddleName phoneticFamilyName phoneticOrganizationName organizationName departmentName jobTitle note birthday { calendar era year month day isLeapMonth } nonGregorianBirthday { calendar year month day } imageData thumbnailImageData imageDataAvailable phoneNumbers { identifier label value } emailAddresses { identifier label value } postalAddresses { identifier label value { street subLocality city subAdministrativeArea state postalCode country isoCountryCode } } urlAddresses { label value } dates { label value { year month day } } contactRelations { label value { name } } socialProfiles { label value { urlString username userIdentifier service } } instantMessageAddresses { label value { username service } } vCardProperties displayName familyFirst: displayName(order: FAMILY_NAME_FIRST) groups { id name } container { id name type isDefault } revision createdAt modifiedAt }",
            [:]
        ),
        (
            "query($name: String, $n: Int = 5) { contacts(first: $n, filter: {name: $name}) { totalCount nodes { givenName familyName } } }",
            ["name": "smi"]
        ),
        (
            "query($email: String!) { contacts(filter: {email: $email}) { nodes { familyName emailAddresses { value } } } }",
            ["email": "PERSON1.0@EXAMPLE.COM"]
        ),
        ("{ contacts(filter: {phone: \"555-010-1021\"}) { nodes { familyName phoneNumbers { label value } } } }", [:]),
        (
            "{ groups { id name memberCount container { name } members(sortOrder: FAMILY_NAME) { familyName groups { name } } } }",
            [:]
        ),
        ("{ containers { __typename id name type isDefault createdAt } defaultContainer { name } }", [:]),
        (
            "{ changeHistory(includeGroupChanges: true) { token hasMore events { __typename author ... on AddContactEvent { contactId containerId contact { givenName } } ... on UpdateContactEvent { contactId changedKeys contact { jobTitle } } ... on DeleteContactEvent { contactId } ... on AddGroupEvent { groupId containerId group { name } } ... on AddMemberToGroupEvent { contactId groupId } } } }",
            [:]
        ),
        ("{ changeHistory(first: 3) { token hasMore events { __typename } } currentHistoryToken }", [:]),
        (
            "{ contacts(last: 2, sortOrder: FAMILY_NAME) { edges { node { familyName } } pageInfo { hasPreviousPage hasNextPage } } }",
            [:]
        ),
        (
            "{ a: contacts(first: 2) { nodes { id } } b: contacts(first: 2, sortOrder: GIVEN_NAME) { nodes { id } } }",
            [:]
        ),
        (
            "query($skip: Boolean!) { contacts(first: 2) { nodes { id givenName @skip(if: $skip) familyName @include(if: $skip) } } }",
            ["skip": true]
        ),
        (
            "{ __typename contacts(first: 1) { __typename nodes { __typename emailAddresses { __typename } } pageInfo { __typename } } }",
            [:]
        ),
        ("{ contacts(first: 1) { nodes { id } } contacts(first: 1) { totalCount } }", [:]),
        (
            "{ contact(id: \"missing\") { id } group(id: \"missing\") { id } container(id: \"missing\") { id } node(id: \"missing\") { id } }",
            [:]
        ),
        ("{ contacts(first: 5000) { totalCount } }", [:]),
        ("{ contacts(filter: {name: \"jos\\u00e9\"}) { nodes { givenName familyName } } }", [:]),
        ("{ contacts(filter: {name: \"Zoë\"}) { nodes { givenName familyName organizationName } } }", [:]),
    ]

    /// Introspection: GraphQLSwift's executor lists by name, reports no input-field defaults and `isOneOf: false`
    /// on every type; Carnet corrects those (IntrospectionFixup), so the comparison ignores order and those two
    /// members, and everything else must be equal.
    static let introspection = [
        "{ __type(name: \"ContactFilter\") { name kind inputFields { name type { name kind ofType { name kind } } } } }",
        "{ __type(name: \"Contact\") { name description fields { name description args { name defaultValue } type { name kind ofType { name } } } interfaces { name } } }",
        "{ __schema { queryType { name } mutationType { name } subscriptionType { name } types { name kind possibleTypes { name } enumValues { name } } } }",
        "{ __type(name: \"SaveOperationInput\") { name inputFields { name } } t: __type(name: \"ContactSortOrder\") { enumValues { name description } } }",
    ]

    static func unordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): .array(items.map(unordered).sorted { $0.json < $1.json })
        case .object(let members):
            .object(members.filter { $0.key != "isOneOf" && $0.key != "defaultValue" }.mapValues(unordered))
        default: value
        }
    }

    /// Escapes GraphQLSwift's lexer cannot read, sent to Carnet, against the same string written plainly to the
    /// reference executor.
    static let escaped: [(carnet: String, reference: String)] = [
        (
            #"{ contacts(filter: {name: "jos\u{E9}"}) { nodes { givenName } } }"#,
            #"{ contacts(filter: {name: "josé"}) { nodes { givenName } } }"#
        ),
        (
            #"{ contacts(filter: {name: "\u{5A}o\u{EB}"}) { nodes { givenName } } }"#,
            #"{ contacts(filter: {name: "Zoë"}) { nodes { givenName } } }"#
        ),
        (
            #"{ contacts(filter: {name: "\uD83D\uDE00"}) { totalCount } }"#,
            #"{ contacts(filter: {name: "😀"}) { totalCount } }"#
        ),
    ]

    static func compare(
        _ service: GraphQLService, _ reference: GraphQLSchema, _ store: any ContactStore, _ query: String,
        _ variables: [String: JSONValue]
    ) async throws -> (carnet: JSONValue, reference: JSONValue) {
        let ours = try JSONParser.parse(
            await service.execute(GraphQLRequestBody(query: query, variables: variables)).body)
        let theirs = try await ReferenceSchema.execute(reference, store: store, query: query, variables: variables)
        let theirsJSON = try JSONParser.parse(Array(JSONEncoder().encode(theirs)))
        return (canonical(ours), canonical(theirsJSON))
    }

    /// Data as is; errors reduced to their paths (messages are worded differently by design).
    static func canonical(_ response: JSONValue) -> JSONValue {
        var result: [String: JSONValue] = [:]
        result["data"] = response.objectValue?["data"] ?? .null
        let paths = (response.objectValue?["errors"]?.arrayValue ?? []).map { $0.objectValue?["path"] ?? .array([]) }
        result["errorPaths"] = .array(paths.sorted { $0.json < $1.json })
        return .object(result)
    }

    @Test("Hand-written operations")
    func handWrittenCorpus() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let reference = try ReferenceSchema.make()
        for (query, variables) in Self.handWritten {
            let (ours, theirs) = try await Self.compare(fixture.service, reference, fixture.store, query, variables)
            #expect(ours == theirs, "\(query)\ncarnet:    \(ours.json)\nreference: \(theirs.json)")
        }
    }

    @Test("String escapes, and both cursors in the directions the store applies them")
    func escapesAndCursors() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let reference = try ReferenceSchema.make()
        for (carnet, plain) in Self.escaped {
            let ours = Self.canonical(
                try JSONParser.parse(await fixture.service.execute(GraphQLRequestBody(query: carnet)).body))
            let (_, theirs) = try await Self.compare(fixture.service, reference, fixture.store, plain, [:])
            #expect(ours == theirs, "\(carnet)\ncarnet:    \(ours.json)\nreference: \(theirs.json)")
        }
        let page = try await fixture.data("{ contacts(first: 5, sortOrder: FAMILY_NAME) { edges { cursor } } }")
        for index in [0, 2, 4] {
            let cursor = try #require(page["contacts"]?["edges"]?[index]?["cursor"]?.stringValue)
            for arguments in [
                #"first: 3, after: "\#(cursor)""#, #"last: 3, before: "\#(cursor)""#, #"after: "\#(cursor)""#,
            ] {
                let query =
                    "{ contacts(sortOrder: FAMILY_NAME, \(arguments)) { edges { cursor node { familyName } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }"
                let (ours, theirs) = try await Self.compare(fixture.service, reference, fixture.store, query, [:])
                #expect(ours == theirs, "\(query)\ncarnet:    \(ours.json)\nreference: \(theirs.json)")
            }
        }
    }

    @Test("Introspection, but for the order and the members GraphQLSwift gets wrong")
    func introspectionCorpus() async throws {
        let fixture = try GraphQLFixture()
        let reference = try ReferenceSchema.make()
        for query in Self.introspection {
            let (ours, theirs) = try await Self.compare(fixture.service, reference, fixture.store, query, [:])
            #expect(ours["errorPaths"] == .array([]), "\(query)")
            #expect(
                Self.unordered(ours) == Self.unordered(theirs),
                "\(query)\ncarnet:    \(ours.json)\nreference: \(theirs.json)")
        }
    }

    @Test("Operations generated from the schema", arguments: 0..<4)
    func generatedCorpus(batch: Int) async throws {
        let fixture = try GraphQLFixture()
        let seeded = try await SampleData.seed(fixture.store)
        let reference = try ReferenceSchema.make()
        var generator = QueryGenerator(seed: UInt64(batch) &* 7919 &+ 17, seeded: seeded)
        for _ in 0..<40 {
            let (query, variables) = generator.document()
            let (ours, theirs) = try await Self.compare(fixture.service, reference, fixture.store, query, variables)
            #expect(ours == theirs, "\(query)\ncarnet:    \(ours.json)\nreference: \(theirs.json)")
            #expect(ours["data"] != .null, "the generator made an invalid document: \(query)")
            if ours != theirs { break }
        }
    }
}
