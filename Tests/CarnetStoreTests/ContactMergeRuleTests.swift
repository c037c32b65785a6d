import Foundation
import Testing

@testable import CarnetStore

/// ``ContactMerge``'s rules on their own, without a store.
@Suite("Contact merge rules")
struct ContactMergeRuleTests {
    func participant(
        _ id: String, strings: [ContactKey: String] = [:], image: Data? = nil,
        values: [MultiValueKind: [(String, String?, String)]] = [:]
    ) -> MergeParticipant {
        var contact = Contact(fetched: id, keys: ContactKeySet(ContactKey.stringKeys))
        for (key, value) in strings { contact.setStoredString(key, value) }
        var stored: [MultiValueKind: [StoredLabeledValue]] = [:]
        for (kind, list) in values {
            stored[kind] = list.enumerated().map { position, item in
                StoredLabeledValue(
                    rowid: 0, identifier: item.0, label: item.1, value: item.2, position: position * 2,
                    createdRevision: 1, revision: 1)
            }
        }
        return MergeParticipant(contact: contact, imageData: image, thumbnailImageData: image, values: stored)
    }

    @Test("Single values: the survivor's, else the first absorbed contact's in the order given; notes all kept")
    func singleValues() throws {
        let survivor = participant("s", strings: [.givenName: "Ann", .note: "one"])
        let first = participant("a", strings: [.givenName: "Anne", .familyName: "Lee", .note: "two"])
        let second = participant(
            "b", strings: [.familyName: "Leigh", .jobTitle: "Chef", .note: "one"], image: Data([1, 2]))
        let merge = try ContactMerge(into: survivor, absorbing: [first, second])
        #expect(merge.update.modifiedKeys == [.familyName, .jobTitle, .note, .imageData, .thumbnailImageData])
        #expect(merge.update.familyName == "Lee")
        #expect(merge.update.jobTitle == "Chef")
        #expect(merge.update.note == "one\n\ntwo")
        #expect(merge.update.imageData == Data([1, 2]))
        let unchanged = try ContactMerge(into: first, absorbing: [participant("c", strings: [.givenName: "X"])])
        #expect(unchanged.update.modifiedKeys.isEmpty)
        #expect(unchanged.moves.isEmpty && unchanged.changedValueKeys.isEmpty)
    }

    @Test("Multi-values: deduplicated by normalised value, moved after the survivor's with their identifiers")
    func multiValues() throws {
        let survivor = participant(
            "s",
            values: [
                .emailAddresses: [("e1", "home", "Ann@Example.com")], .phoneNumbers: [("p1", nil, "+1 555 555 1234")],
                .dates: [("d1", "anniversary", "2010-06-01")],
            ])
        let absorbed = participant(
            "a",
            values: [
                .emailAddresses: [("e2", "work", "ann@example.COM"), ("e3", "work", "ann@work.example")],
                .phoneNumbers: [("p2", "mobile", "(555) 555-1234"), ("p3", "work", "555 555 9999")],
                .dates: [("d2", "wedding", "2010-06-01"), ("d3", "anniversary", "2010-06-01")],
                .postalAddresses: [("a1", "home", "Élysée\u{1F}Paris"), ("a2", "work", "elysee\u{1F}PARIS")],
                .vCardProperties: [("v1", nil, "UID:urn:uuid:1"), ("v2", nil, "X-FOO:bar")],
            ])
        let merge = try ContactMerge(into: survivor, absorbing: [absorbed])
        #expect(
            merge.moves == [
                .init(kind: .phoneNumbers, identifier: "p3", position: 1),
                .init(kind: .emailAddresses, identifier: "e3", position: 1),
                .init(kind: .postalAddresses, identifier: "a1", position: 0),
                .init(kind: .dates, identifier: "d2", position: 1),
                .init(kind: .vCardProperties, identifier: "v2", position: 0),
            ])
        #expect(
            merge.changedValueKeys == [.phoneNumbers, .emailAddresses, .postalAddresses, .dates, .vCardProperties])
    }

    @Test("A merge past a limit is refused, naming the contacts and the key")
    func limits() {
        let many = (0..<StoreLimits.valuesPerProperty).map { ("u\($0)", String?.none, "https://example.com/\($0)") }
        let survivor = participant("s", values: [.urlAddresses: many])
        let absorbed = participant("a", values: [.urlAddresses: [("x", nil, "https://other.example")]])
        #expect {
            try ContactMerge(into: survivor, absorbing: [absorbed])
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .validationFailed && error?.affectedRecordIdentifiers == ["s", "a"]
                && error?.keyPaths == ["urlAddresses"]
        }
    }
}
