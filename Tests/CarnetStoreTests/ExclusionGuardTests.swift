import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A subscription that excludes its client's author must still deliver that author's events about records it sent
/// before: a payload produced before the client's own save can reach the client after it applied that save.
@Suite("Author exclusion guard")
struct ExclusionGuardTests {
    @Test("Every record and membership sent is found; few others are")
    func filter() {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        var sent = ExclusionGuard()
        #expect(sent.keepsNone)
        var events: [ChangeHistoryEvent] = []
        for index in 0..<2_000 {
            let id = "c\(index)-\(random.next())"
            switch random.int(0...2) {
            case 0: events.append(ChangeHistoryEvent(kind: .updateContact, contact: id))
            case 1: events.append(ChangeHistoryEvent(kind: .deleteGroup, group: id))
            default: events.append(ChangeHistoryEvent(kind: .addMemberToGroup, contact: id, group: "g\(index)"))
            }
        }
        sent.insert(events)
        for event in events {
            let (recordId, otherId) =
                event.kind == .deleteGroup
                ? (event.groupIdentifier!, nil) : (event.contactIdentifier!, event.groupIdentifier)
            // Any kind of the same record: a delete after an update, a removal after an addition.
            let later: ChangeEventKind =
                switch event.kind {
                case .updateContact: .deleteContact
                case .deleteGroup: .updateGroup
                default: .removeMemberFromGroup
                }
            #expect(sent.mayContain(kind: later, recordId: recordId, otherId: otherId), "seed \(seed)")
        }
        let strangers = (0..<10_000).filter { index in
            sent.mayContain(kind: .updateContact, recordId: "other\(index)-\(random.next())", otherId: nil)
        }
        #expect(strangers.count < 200, "seed \(seed): \(strangers.count) of 10,000 unsent records read as sent")
        // A contact's identifier is not the group's; a contact sent makes its memberships sent (a unified page
        // sends a member's delete as the stand-in for its linking, which takes its memberships away).
        let contact = events.first { $0.kind == .updateContact }!.contactIdentifier!
        #expect(sent.mayContain(kind: .addMemberToGroup, recordId: contact, otherId: "g0"))
        #expect(sent.mayContain(kind: .removeMemberFromGroup, recordId: contact, otherId: "g1"))
        #expect(!sent.mayContain(kind: .addMemberToGroup, recordId: "never-sent", otherId: "g0"))
        #expect(!sent.mayContain(kind: .deleteGroup, recordId: contact, otherId: nil))
        // A membership sent makes its contact and group sent: their deletes end it.
        let membership = events.first { $0.kind == .addMemberToGroup }!
        #expect(sent.mayContain(kind: .deleteContact, recordId: membership.contactIdentifier!, otherId: nil))
        #expect(sent.mayContain(kind: .deleteGroup, recordId: membership.groupIdentifier!, otherId: nil))
        // Before the subscription started: kept, whatever the record.
        sent.catchUpPosition = 40
        #expect(sent.keeps(position: 40, kind: .deleteContact, recordId: "never-sent", otherId: nil))
        #expect(!sent.keeps(position: 41, kind: .deleteContact, recordId: "never-sent", otherId: nil))
        // After a full sync: everything.
        sent.insert([ChangeHistoryEvent(kind: .dropEverything)])
        #expect(sent.keeps(position: 41, kind: .deleteContact, recordId: "never-sent", otherId: nil))
    }

    @Test("An excluded author's events reach the client about the records it was sent", arguments: StoreKind.available)
    func excludedButSent(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let seen = Make.person("Seen", "Before")
        let unseen = Make.person("Unseen", "Before")
        let group = Group(name: "Friends")
        var setup = SaveRequest(transactionAuthor: "other")
        setup.add(seen)
        setup.add(unseen)
        setup.add(group)
        setup.addMember(seen.identifier, toGroup: group.identifier)
        try await store.execute(setup)
        let token = try await store.currentHistoryToken()
        // The client's own save: it renames the seen contact and the group, ends the membership and deletes the
        // contact it was never sent.
        var own = SaveRequest(transactionAuthor: "me")
        var edited = Contact(updating: seen.identifier)
        edited.givenName = "Edited"
        own.update(edited)
        own.removeMember(seen.identifier, fromGroup: group.identifier)
        own.delete(contactWithIdentifier: unseen.identifier)
        var renamed = group
        renamed.name = "Renamed"
        own.update(renamed)
        try await store.execute(own)

        var request = ChangeHistoryFetchRequest(
            startingToken: token, includeGroupChanges: true, excludedAuthors: ["me"], contactKeys: [.givenName])
        #expect(try await store.changeHistory(request).events.isEmpty)
        // What an earlier payload carried: the seen contact, the group and the membership.
        request.exclusionGuard.insert([
            ChangeHistoryEvent(kind: .addContact, contact: seen.identifier),
            ChangeHistoryEvent(kind: .addGroup, group: group.identifier),
            ChangeHistoryEvent(kind: .addMemberToGroup, contact: seen.identifier, group: group.identifier),
        ])
        let events = try await store.changeHistory(request).events
        #expect(
            Set(events.map { "\($0.kind) \($0.author ?? "-")" }) == [
                "updateContact me", "updateGroup me", "removeMemberFromGroup me",
            ])
        #expect(events.first { $0.kind == .updateContact }?.contact?.givenName == "Edited")
        #expect(events.first { $0.kind == .updateGroup }?.group?.name == "Renamed")
        // A subscription that started after the client's save delivers all of its events.
        var resumed = ChangeHistoryFetchRequest(
            startingToken: token, includeGroupChanges: true, excludedAuthors: ["me"], contactKeys: [.givenName])
        resumed.exclusionGuard.catchUpPosition = try #require(
            HistoryToken(encoded: try await store.currentHistoryToken())?.position)
        #expect(
            Set(try await store.changeHistory(resumed).events.map { "\($0.kind)" }) == [
                "updateContact", "updateGroup", "removeMemberFromGroup", "deleteContact",
            ])
    }
}
