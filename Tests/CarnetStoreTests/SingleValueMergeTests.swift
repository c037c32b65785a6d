import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

/// The single-value merge rules on their own, without a database (the store-level cases are in `MergeTests`).
@Suite("Single-value merge rules")
struct SingleValueMergeTests {
    @Test("Without a base revision the update wins: nothing conflicts")
    func lastWriterWins() {
        let conflicts = SingleValueMerge.conflicts(
            setting: [.givenName, .note], baseRevision: nil, createdRevision: 1,
            keyRevisions: [.givenName: 9, .note: 9])
        #expect(conflicts.isEmpty)
    }

    @Test("With a base, a key changed after it conflicts; keys changed at or before it, or never, do not")
    func conflictsAfterBase() {
        let conflicts = SingleValueMerge.conflicts(
            setting: [.givenName, .familyName, .note, .jobTitle], baseRevision: 5, createdRevision: 2,
            keyRevisions: [.givenName: 6, .familyName: 5, .note: 4])
        #expect(conflicts == [.givenName])
    }

    @Test("A key never changed since the contact was added conflicts only if the contact is newer than the base")
    func creationCounts() {
        let older = SingleValueMerge.conflicts(
            setting: [.note], baseRevision: 5, createdRevision: 3, keyRevisions: [:])
        #expect(older.isEmpty)
        let newer = SingleValueMerge.conflicts(
            setting: [.note], baseRevision: 5, createdRevision: 7, keyRevisions: [:])
        #expect(newer == [.note])
    }

    @Test("Keys changed since the base that the update leaves alone merge: only the update's keys are judged")
    func untouchedKeysMerge() {
        let conflicts = SingleValueMerge.conflicts(
            setting: [.familyName], baseRevision: 5, createdRevision: 1, keyRevisions: [.givenName: 8, .note: 9])
        #expect(conflicts.isEmpty)
    }
}
