import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

/// The coalescing rules on their own, without a database.
@Suite("History coalescing rules")
struct HistoryCoalescerTests {
    @Test("A record's kind after a later event")
    func fold() {
        let cases: [(ChangeEventKind, ChangeEventKind, ChangeEventKind)] = [
            (.addContact, .updateContact, .addContact),
            (.addContact, .deleteContact, .deleteContact),
            (.updateContact, .updateContact, .updateContact),
            (.updateContact, .deleteContact, .deleteContact),
            (.addGroup, .updateGroup, .addGroup),
            (.addGroup, .deleteGroup, .deleteGroup),
            (.updateGroup, .deleteGroup, .deleteGroup),
            (.addMemberToGroup, .removeMemberFromGroup, .removeMemberFromGroup),
            (.removeMemberFromGroup, .addMemberToGroup, .addMemberToGroup),
        ]
        for (earlier, later, folded) in cases {
            #expect(HistoryCoalescer.fold(earlier, later) == folded, "\(earlier) then \(later)")
        }
    }

    @Test("One entry per record, in order of first events; updates merge keys; the last author is kept")
    func entries() {
        var coalescer = HistoryCoalescer()
        let raws: [HistoryCoalescer.Raw] = [
            .init(kind: .updateContact, recordId: "a", otherId: nil, changedKeys: [.note], author: "x"),
            .init(kind: .addContact, recordId: "b", otherId: "k", changedKeys: [], author: "x"),
            .init(kind: .updateContact, recordId: "a", otherId: nil, changedKeys: [.givenName], author: "y"),
            .init(kind: .deleteContact, recordId: "b", otherId: nil, changedKeys: [], author: "z"),
            .init(kind: .addMemberToGroup, recordId: "a", otherId: "g", changedKeys: [], author: "x"),
            .init(kind: .removeMemberFromGroup, recordId: "a", otherId: "g", changedKeys: [], author: "y"),
        ]
        for raw in raws {
            let added = coalescer.add(raw)
            #expect(added)
        }
        let events = coalescer.events
        #expect(events.map(\.kind) == [.updateContact, .deleteContact, .removeMemberFromGroup])
        #expect(events.map(\.author) == ["y", "z", "y"])
        #expect(events[0].changedKeys == [.givenName, .note].sorted())
        #expect(events[1].containerIdentifier == nil)
        #expect(coalescer.count == 3)
    }

    @Test("At the limit, a new record's event is refused and changes nothing; a known record's still folds in")
    func limit() {
        var coalescer = HistoryCoalescer(limit: 1)
        let first = coalescer.add(.init(kind: .addContact, recordId: "a", otherId: "k", changedKeys: [], author: "x"))
        let second = coalescer.add(.init(kind: .addContact, recordId: "b", otherId: "k", changedKeys: [], author: "x"))
        let third = coalescer.add(
            .init(kind: .deleteContact, recordId: "a", otherId: nil, changedKeys: [], author: "y"))
        #expect(first && !second && third)
        #expect(coalescer.events.map(\.kind) == [.deleteContact])
        #expect(coalescer.events.map(\.contactIdentifier) == ["a"])
    }

    /// An outside tester's find: an added group updated by another author's save came out in that author's name,
    /// and in the adder's once that author was excluded.
    @Test("An entry is the author's whose event gave it its kind")
    func authorOfKind() {
        let cases: [([(ChangeEventKind, String)], ChangeEventKind, String)] = [
            ([(.addGroup, "b"), (.updateGroup, "a")], .addGroup, "b"),
            ([(.addContact, "b"), (.updateContact, "a"), (.updateContact, "c")], .addContact, "b"),
            ([(.updateContact, "b"), (.updateContact, "a")], .updateContact, "a"),
            ([(.addContact, "b"), (.deleteContact, "a")], .deleteContact, "a"),
            ([(.updateGroup, "b"), (.deleteGroup, "a")], .deleteGroup, "a"),
            ([(.addMemberToGroup, "b"), (.removeMemberFromGroup, "a")], .removeMemberFromGroup, "a"),
        ]
        for (raws, kind, author) in cases {
            var coalescer = HistoryCoalescer()
            for (rawKind, rawAuthor) in raws {
                coalescer.add(.init(kind: rawKind, recordId: "r", otherId: "g", changedKeys: [], author: rawAuthor))
            }
            #expect(coalescer.events.map(\.kind) == [kind], "\(raws)")
            #expect(coalescer.events.map(\.author) == [author], "\(raws)")
        }
    }

    @Test("A membership stated otherwise than its saves left it is the author's of the delete that ended it")
    func membershipAuthor() {
        let page = [
            ChangeHistoryEvent(kind: .addMemberToGroup, contact: "m", group: "g", author: "b"),
            ChangeHistoryEvent(kind: .addMemberToGroup, contact: "n", group: "h", author: "b"),
            ChangeHistoryEvent(kind: .removeMemberFromGroup, contact: "o", group: "g", author: "b"),
            ChangeHistoryEvent(kind: .addMemberToGroup, contact: "p", group: "g", author: "b"),
            ChangeHistoryEvent(kind: .deleteContact, contact: "m", author: "a"),
            ChangeHistoryEvent(kind: .deleteGroup, group: "h", author: "c"),
        ]
        let authors = MembershipAuthors(page)
        // Ended by its contact's delete, by its group's, stated as its last save left it, changed past the page.
        #expect(authors.author(of: page[0], stated: .removeMemberFromGroup) == "a")
        #expect(authors.author(of: page[1], stated: .removeMemberFromGroup) == "c")
        #expect(authors.author(of: page[0], stated: .addMemberToGroup) == "b")
        #expect(authors.author(of: page[2], stated: .removeMemberFromGroup) == "b")
        #expect(authors.author(of: page[2], stated: .addMemberToGroup) == nil)
        #expect(authors.author(of: page[3], stated: .removeMemberFromGroup) == nil)
    }
}
