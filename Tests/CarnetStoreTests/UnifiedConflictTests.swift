import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// An update through a unified contact, based on a revision before a link, an unlink or a change of preferred
/// contact, went through and wrote over values its client never saw (an outside tester's find): a linked member's
/// job title, an email the link brought in. It is a CONFLICT, and nothing is written.
@Suite("Updates through a unified contact after its links changed")
struct UnifiedConflictTests {
    func execute(_ store: any ContactStore, _ body: (inout SaveRequest) -> Void) async throws -> SaveResult {
        var request = SaveRequest(transactionAuthor: "app")
        body(&request)
        return try await store.execute(request)
    }

    @Test(
        "A link, an unlink or a new preferred contact since the base revision is a CONFLICT; edits since are merged as ever",
        arguments: StoreKind.available)
    func conflicts(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let (a, b) = (Make.person("Ann", "One"), Make.person("Bea", "Two"))
        var f = Make.person("Fay", "Three", emails: ["fay@example.com"])
        f.jobTitle = "f-job"
        try await store.add([a, b, f])
        let linked = try await execute(store) { $0.link(contactsWithIdentifiers: [a.identifier, b.identifier]) }
        let unified = try #require(linked.recordIdentifiers.first)
        let base = try #require(linked.revision)
        func stale(_ change: (inout Contact) -> Void) async throws -> StoreError? {
            var update = Contact(updating: unified)
            change(&update)
            do {
                _ = try await execute(store) { $0.update(update, baseRevision: base) }
                return nil
            } catch let error as StoreError {
                return error
            }
        }
        // An edit of a member since the base, of another key: merged.
        var note = Contact(updating: b.identifier)
        note.note = "b-note"
        _ = try await execute(store) { $0.update(note) }
        #expect(try await stale { $0.nickname = "Nan" } == nil)

        let grown = try await execute(store) { $0.link(contactsWithIdentifiers: [unified, f.identifier]) }
        let linkedIn = try await stale { $0.jobTitle = "x" }
        #expect(linkedIn?.code == .conflict && linkedIn?.keyPaths == ["jobTitle"], "\(String(describing: linkedIn))")
        #expect(try await stale { $0.emailAddresses = [] }?.code == .conflict)
        let members = try await store.contacts(
            withIdentifiers: [f.identifier], keysToFetch: [.jobTitle, .emailAddresses])
        #expect(members.first?.jobTitle == "f-job" && members.first?.emailAddresses.count == 1)

        // Based on the link's revision: through.
        let current = try #require(grown.revision)
        var update = Contact(updating: unified)
        update.nickname = "Annie"
        _ = try await execute(store) { $0.update(update, baseRevision: current) }

        let preferred = try await execute(store) { $0.setPreferredForName(contactWithIdentifier: b.identifier) }
        let afterPreference = try await stale { $0.givenName = "Renamed" }
        #expect(afterPreference?.code == .conflict)
        _ = try await execute(store) { $0.unlink(contactWithIdentifier: f.identifier) }
        var late = Contact(updating: unified)
        late.givenName = "Renamed"
        let beforeUnlink = try #require(preferred.revision)
        do {
            _ = try await execute(store) { $0.update(late, baseRevision: beforeUnlink) }
            Issue.record("an update based on a revision before the unlink went through")
        } catch let error as StoreError {
            #expect(error.code == .conflict)
        }
        let names = try await store.contacts(withIdentifiers: [a.identifier, b.identifier], keysToFetch: [.givenName])
        #expect(Set(names.map(\.givenName)) == ["Ann", "Bea"])
    }

    /// A link change whose events compaction deleted is not known any more: an update based on a revision before
    /// the compacted history is refused as if one happened, one based on a revision after it goes through.
    @Test(
        "An update based on a revision older than the compacted history is a CONFLICT", arguments: StoreKind.available)
    func compactedHistory(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var (a, b) = (Make.person("Ann", "One"), Make.person("Bea", "Two"))
        b.jobTitle = "b-job"
        let added = try await store.add([a, b])
        let before = try #require(added.revision)
        let linked = try await execute(store) { $0.link(contactsWithIdentifiers: [a.identifier, b.identifier]) }
        let unified = try #require(linked.recordIdentifiers.first)
        #expect(try await store.compactHistory(olderThan: Date().addingTimeInterval(3600)) > 0)
        var update = Contact(updating: unified)
        update.jobTitle = "stale"
        do {
            _ = try await execute(store) { $0.update(update, baseRevision: before) }
            Issue.record("an update based on a revision before the compacted link went through")
        } catch let error as StoreError {
            #expect(error.code == .conflict, "\(error)")
        }
        let members = try await store.contacts(withIdentifiers: [b.identifier], keysToFetch: [.jobTitle])
        #expect(members.first?.jobTitle == "b-job")
        // Based on the link's own revision, after which nothing was compacted: through.
        let current = try #require(linked.revision)
        _ = try await execute(store) { $0.update(update, baseRevision: current) }
    }
}
