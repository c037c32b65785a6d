import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Two clients read the same revision, then both save an update based on it.
@Suite("Merge on save")
struct MergeTests {
    func setUp(_ kind: StoreKind) async throws -> (any ContactStore, Contact, Int64, StoreFixture) {
        let fixture = try await StoreFixture(kind)
        var contact = Make.person("Anna", "Smith", phones: ["111", "222"])
        contact.jobTitle = "Engineer"
        try await fixture.store.add([contact])
        let base = try await fixture.store.contact(withIdentifier: contact.identifier, keysToFetch: .all)
        return (fixture.store, base, base.revision, fixture)
    }

    @Test("Edits to different keys merge", arguments: StoreKind.available)
    func differentKeysMerge(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.givenName = "Annie"
        var second = base
        second.jobTitle = "Manager"
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: revision)]))
        try await store.execute(SaveRequest(operations: [.updateContact(second, baseRevision: revision)]))
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.givenName == "Annie")
        #expect(after.jobTitle == "Manager")
    }

    @Test("Edits to the same key conflict, name the key path and write nothing", arguments: StoreKind.available)
    func sameKeyConflicts(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.givenName = "Annie"
        var second = base
        second.givenName = "Ann"
        second.note = "written by the loser"
        let tokenBefore = try await store.execute(
            SaveRequest(operations: [.updateContact(first, baseRevision: revision)])
        ).historyToken
        var request = SaveRequest()
        request.add(Make.person("Side", "Effect"))
        request.update(second, baseRevision: revision)
        let error = await #expect(throws: StoreError.self) { try await store.execute(request) }
        #expect(error?.code == .conflict)
        #expect(error?.keyPaths == ["givenName"])
        #expect(error?.operationIndex == 1)
        #expect(error?.affectedRecordIdentifiers == [base.identifier])
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.givenName == "Annie")
        #expect(after.note == "")
        #expect(try await store.contactCount() == 1)
        #expect(try await store.currentHistoryToken() == tokenBefore)
    }

    @Test(
        "A value edited twice in one commit is judged by its content before that commit",
        arguments: StoreKind.available)
    func valueEditedTwiceInOneCommit(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        func phones(_ first: String) -> Contact {
            var edit = Contact(updating: base.identifier)
            let stored = base.phoneNumbers[0]
            edit.phoneNumbers = [
                LabeledValue(identifier: stored.identifier, label: stored.label, value: first), base.phoneNumbers[1],
            ]
            return edit
        }
        try await store.execute(
            SaveRequest(operations: [
                .updateContact(phones("333"), baseRevision: revision), .updateContact(phones("444"), baseRevision: nil),
            ]))
        // Sent back as it was at the base, beside an edit of another key: the value keeps its current content.
        var sentBack = phones("111")
        sentBack.givenName = "Annie"
        try await store.execute(SaveRequest(operations: [.updateContact(sentBack, baseRevision: revision)]))
        var after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.phoneNumbers.map(\.value) == ["444", "222"])
        #expect(after.givenName == "Annie")
        // An edit of it based on that revision conflicts (it was written as if nothing had changed).
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(phones("333"), baseRevision: revision)]))
        }
        #expect(error?.code == .conflict)
        after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.phoneNumbers.map(\.value) == ["444", "222"])
    }

    @Test("A base revision the store has not reached is a conflict and writes nothing", arguments: StoreKind.available)
    func baseRevisionAhead(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.givenName = "Annie"
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: revision)]))
        let token = try await store.currentHistoryToken()
        let group = Group(name: "Friends")
        try await store.execute(SaveRequest(operations: [.addGroup(group, containerIdentifier: nil)]))
        let afterGroup = try await store.currentHistoryToken()
        #expect(afterGroup != token)
        var second = base
        second.givenName = "Ann"
        for future in [revision + 3, 999_999_999] {
            let error = await #expect(throws: StoreError.self) {
                try await store.execute(SaveRequest(operations: [.updateContact(second, baseRevision: future)]))
            }
            #expect(error?.code == .conflict)
            #expect(error?.affectedRecordIdentifiers == [base.identifier])
            var renamed = group
            renamed.name = "Enemies"
            let groupError = await #expect(throws: StoreError.self) {
                try await store.execute(SaveRequest(operations: [.updateGroup(renamed, baseRevision: future)]))
            }
            #expect(groupError?.code == .conflict)
        }
        #expect(try await store.contact(withIdentifier: base.identifier, keysToFetch: .all).givenName == "Annie")
        #expect(try await store.currentHistoryToken() == afterGroup)
    }

    /// An outside tester's read-modify-write: two clients read note "0" at one revision and both saved "1"; both
    /// succeeded (the second wrote nothing), so one of two increments was lost without an error.
    @Test(
        "Two edits of one key from one base conflict even when they set the same value", arguments: StoreKind.available
    )
    func sameNewValueConflicts(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.note = "1"
        first.phoneNumbers[0] = base.phoneNumbers[0].settingValue("111-1")
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: revision)]))
        let tokenBefore = try await store.currentHistoryToken()
        var note = base
        note.note = "1"
        let noteError = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(note, baseRevision: revision)]))
        }
        #expect(noteError?.code == .conflict)
        #expect(noteError?.keyPaths == ["note"])
        var phone = base
        phone.phoneNumbers[0] = base.phoneNumbers[0].settingValue("111-1")
        let phoneError = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(phone, baseRevision: revision)]))
        }
        #expect(phoneError?.code == .conflict)
        #expect(phoneError?.keyPaths == ["phoneNumbers.\(base.phoneNumbers[0].identifier!)"])
        #expect(try await store.currentHistoryToken() == tokenBefore)
        // From the current revision the same saves are no change, and no conflict.
        let current = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        var again = current
        again.note = "1"
        again.phoneNumbers[0] = current.phoneNumbers[0].settingValue("111-1")
        try await store.execute(SaveRequest(operations: [.updateContact(again, baseRevision: current.revision)]))
        // A value sent back as it was at the base still merges with the other's change of it.
        var echo = base
        echo.phoneNumbers = base.phoneNumbers
        echo.jobTitle = "Manager"
        try await store.execute(SaveRequest(operations: [.updateContact(echo, baseRevision: revision)]))
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.phoneNumbers.map(\.value) == ["111-1", "222"])
        #expect(after.note == "1" && after.jobTitle == "Manager")
    }

    @Test("Concurrent edits to two different phone numbers both survive", arguments: StoreKind.available)
    func differentValuesMerge(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.phoneNumbers[0] = base.phoneNumbers[0].settingValue("111-first")
        var second = base
        second.phoneNumbers[1] = base.phoneNumbers[1].settingValue("222-second")
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: revision)]))
        try await store.execute(SaveRequest(operations: [.updateContact(second, baseRevision: revision)]))
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: [.phoneNumbers])
        #expect(after.phoneNumbers.map(\.value) == ["111-first", "222-second"])
        #expect(after.phoneNumbers.map(\.identifier) == base.phoneNumbers.map(\.identifier))
    }

    @Test("Editing the same phone number conflicts on that value", arguments: StoreKind.available)
    func sameValueConflicts(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var first = base
        first.phoneNumbers[0] = base.phoneNumbers[0].settingValue("first")
        var second = base
        second.phoneNumbers[0] = base.phoneNumbers[0].settingValue("second")
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: revision)]))
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(second, baseRevision: revision)]))
        }
        #expect(error?.code == .conflict)
        #expect(error?.keyPaths == ["phoneNumbers.\(base.phoneNumbers[0].identifier!)"])
    }

    @Test(
        "Removing a value someone else changed conflicts; editing one they deleted conflicts",
        arguments: StoreKind.available)
    func removeVersusEdit(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var editor = base
        editor.phoneNumbers[0] = base.phoneNumbers[0].settingValue("edited")
        var remover = base
        remover.phoneNumbers = [base.phoneNumbers[1]]
        try await store.execute(SaveRequest(operations: [.updateContact(editor, baseRevision: revision)]))
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(remover, baseRevision: revision)]))
        }
        #expect(error?.code == .conflict)

        let (store2, base2, revision2, _) = try await setUp(kind)
        var deleter = base2
        deleter.phoneNumbers = [base2.phoneNumbers[1]]
        var editor2 = base2
        editor2.phoneNumbers[0] = base2.phoneNumbers[0].settingValue("edited")
        try await store2.execute(SaveRequest(operations: [.updateContact(deleter, baseRevision: revision2)]))
        let error2 = await #expect(throws: StoreError.self) {
            try await store2.execute(SaveRequest(operations: [.updateContact(editor2, baseRevision: revision2)]))
        }
        #expect(error2?.code == .conflict)
        #expect(error2?.keyPaths == ["phoneNumbers.\(base2.phoneNumbers[0].identifier!)"])
    }

    @Test(
        "A value added since the base revision survives an update that did not know it", arguments: StoreKind.available)
    func concurrentAddSurvives(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        var adder = base
        adder.phoneNumbers.append(LabeledValue(label: ContactLabel.work, value: "333"))
        var remover = base
        remover.phoneNumbers = [base.phoneNumbers[0]]
        try await store.execute(SaveRequest(operations: [.updateContact(adder, baseRevision: revision)]))
        try await store.execute(SaveRequest(operations: [.updateContact(remover, baseRevision: revision)]))
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: [.phoneNumbers])
        #expect(after.phoneNumbers.map(\.value) == ["111", "333"])
    }

    @Test("Without a base revision, the last writer wins", arguments: StoreKind.available)
    func lastWriterWins(kind: StoreKind) async throws {
        let (store, base, _, _) = try await setUp(kind)
        var first = base
        first.givenName = "First"
        first.phoneNumbers = []
        var second = base
        second.givenName = "Second"
        second.phoneNumbers = base.phoneNumbers
        try await store.execute(SaveRequest(operations: [.updateContact(first, baseRevision: nil)]))
        try await store.execute(SaveRequest(operations: [.updateContact(second, baseRevision: nil)]))
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.givenName == "Second")
        #expect(after.phoneNumbers.map(\.value) == ["111", "222"])
        #expect(after.phoneNumbers.allSatisfy { $0.identifier != nil })
    }

    @Test("Concurrent saves from many tasks: each merges or fails whole", arguments: StoreKind.available)
    func concurrentTasks(kind: StoreKind) async throws {
        let (store, base, revision, _) = try await setUp(kind)
        let keys: [ContactKey] = [.middleName, .nickname, .departmentName, .jobTitle, .note, .namePrefix]
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, key) in keys.enumerated() {
                group.addTask {
                    var update = Contact(updating: base.identifier)
                    switch key {
                    case .middleName: update.middleName = "m\(index)"
                    case .nickname: update.nickname = "n\(index)"
                    case .departmentName: update.departmentName = "d\(index)"
                    case .jobTitle: update.jobTitle = "j\(index)"
                    case .note: update.note = "note\(index)"
                    default: update.namePrefix = "p\(index)"
                    }
                    // Six writers on one book may outwait a loaded machine's lock timeout: that save wrote nothing.
                    try await executeRetryingBusy(
                        store, SaveRequest(operations: [.updateContact(update, baseRevision: revision)]))
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == keys.count)
        let after = try await store.contact(withIdentifier: base.identifier, keysToFetch: .all)
        #expect(after.middleName == "m0" && after.nickname == "n1" && after.jobTitle == "j3" && after.note == "note4")
    }
}
