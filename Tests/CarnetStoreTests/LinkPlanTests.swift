import Testing

@testable import CarnetStore

/// The link rules on their own, without a store: who survives, what is retired, where preferences go, and which
/// membership events a link change logs.
@Suite("Link plans")
struct LinkPlanTests {
    let order: [String: Int64] = ["a": 1, "b": 2, "c": 3, "d": 4]

    func group(_ id: String, _ members: [String], name: String? = nil) -> LinkGroup {
        LinkGroup(
            identifier: id, members: members, preferredForName: name ?? members[0],
            preferredForImage: name ?? members[0])
    }

    @Test("Linking unlinked contacts makes a new unified contact preferring the first named, members by age")
    func newGroup() throws {
        let plan = try LinkPlan.link(
            [("c", .contact("c", nil)), ("a", .contact("a", nil))], creationOrder: order, makeIdentifier: { "U" })
        #expect(
            plan.written == [
                LinkGroup(identifier: "U", members: ["a", "c"], preferredForName: "c", preferredForImage: "c")
            ])
        #expect(plan.retired.isEmpty && plan.touched == ["a", "c"])
    }

    @Test("The first named unified contact survives; the others are retired")
    func survivor() throws {
        let (first, second) = (group("U1", ["b", "d"], name: "d"), group("U2", ["a", "c"]))
        let plan = try LinkPlan.link(
            [("x", .unified(second)), ("b", .contact("b", first))], creationOrder: order, makeIdentifier: { "new" })
        #expect(plan.written.map(\.identifier) == ["U2"])
        #expect(plan.written[0].members == ["a", "b", "c", "d"])
        #expect(plan.retired == ["U1"])
    }

    @Test("A contact and its own unified contact, or fewer than two, are refused")
    func refusals() {
        let pair = group("U", ["a", "b"])
        for targets: [(identifier: String, target: LinkPlan.Target)] in [
            [("a", .contact("a", pair)), ("U", .unified(pair))], [("a", .contact("a", nil))],
            [("a", .contact("a", nil)), ("a", .contact("a", nil))],
        ] {
            #expect(throws: StoreError.self) {
                try LinkPlan.link(targets, creationOrder: order, makeIdentifier: { "new" })
            }
        }
        #expect(throws: StoreError.self) { try LinkPlan.unlink("a", from: nil) }
    }

    @Test("Taking out a preferred member passes its preferences on; a pair left with one member ends")
    func removing() throws {
        let plan = LinkPlan.removing("a", from: group("U", ["a", "b", "c"]))
        #expect(
            plan.written == [
                LinkGroup(identifier: "U", members: ["b", "c"], preferredForName: "b", preferredForImage: "b")
            ])
        #expect(plan.unlinked == ["a"] && plan.touched == ["b", "c"])
        let ended = LinkPlan.removing("a", from: group("U", ["a", "b"]))
        #expect(ended.written.isEmpty && ended.retired == ["U"] && ended.unlinked == ["a", "b"])
    }

    @Test("A link change logs memberships for the unified contact in every group involved, and for contacts taken out")
    func membershipRecords() throws {
        let groupsOf = ["a": ["g"], "b": ["h"], "c": ["g", "k"]]
        let unlink = LinkPlan.removing("c", from: group("U", ["a", "b", "c"]))
        let records = unlink.membershipRecords(groupsOf: groupsOf).map { "\($0.record)/\($0.group)" }
        // U may have left k (only c was in it); c stands for its own groups again.
        #expect(Set(records) == ["c/g", "c/k", "U/g", "U/h", "U/k"])
        let ended = LinkPlan.removing("a", from: group("U", ["a", "b"]))
        #expect(Set(ended.membershipRecords(groupsOf: groupsOf).map { "\($0.record)/\($0.group)" }) == ["a/g", "b/h"])
        let prefer = try LinkPlan.prefer("b", in: group("U", ["a", "b"]), forName: true)
        #expect(Set(prefer.membershipRecords(groupsOf: groupsOf).map { "\($0.record)/\($0.group)" }) == ["U/g", "U/h"])
    }

    /// The backends read a contact's groups in no stated order: the history a link logs was ordered by group on
    /// SQLite and by membership on PostgreSQL (an outside differential tester's find).
    @Test("A link change's membership records come in one order, whatever order the groups were read in")
    func membershipRecordOrder() {
        let plan = LinkPlan.removing("c", from: group("U", ["a", "b", "c"]))
        let read = ["a": ["g3", "g1"], "b": ["g2", "g0"], "c": ["k", "g1"]]
        let reversed = read.mapValues { Array($0.reversed()) }
        let records = plan.membershipRecords(groupsOf: read).map { "\($0.record)/\($0.group)" }
        #expect(records == plan.membershipRecords(groupsOf: reversed).map { "\($0.record)/\($0.group)" })
        #expect(records == ["c/g1", "c/k", "U/g1", "U/g3", "U/g0", "U/g2", "U/k"])
    }
}
