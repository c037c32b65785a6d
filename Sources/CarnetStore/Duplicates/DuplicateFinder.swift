import Foundation

/// Turns the keys contacts share into duplicate candidates, for every backend: the backends find the shared keys
/// (emails and phone numbers grouped by their search index, and the names of the book's contacts), this pairs them,
/// scores them and cuts the page.
///
/// Every key shared by more than ``StoreLimits/duplicateKeySharers`` contacts is left out: a switchboard number or
/// an `info@` address is no evidence, and a key of `n` contacts makes `n(n-1)/2` pairs. With the limit, the pairs
/// are at most 190 per key, so the work stays linear in the keys.
package struct DuplicateFinder {
    /// A key held by several contacts.
    package struct SharedKey {
        package var kind: DuplicateReasonKind
        package var value: String
        /// The contacts holding it; repeats are ignored.
        package var contacts: [String]

        package init(kind: DuplicateReasonKind, value: String, contacts: [String]) {
            self.kind = kind
            self.value = value
            self.contacts = contacts
        }
    }

    /// The names of one contact, as stored (folded here).
    package struct Names {
        package var identifier: String
        package var isOrganization: Bool
        package var givenName: String
        package var familyName: String
        package var nickname: String
        package var organizationName: String

        package init(
            identifier: String, isOrganization: Bool, givenName: String, familyName: String, nickname: String,
            organizationName: String
        ) {
            self.identifier = identifier
            self.isOrganization = isOrganization
            self.givenName = givenName
            self.familyName = familyName
            self.nickname = nickname
            self.organizationName = organizationName
        }
    }

    /// A shared key as its pairs are made: its contacts by number, in identifier order; a nickname key pairs each
    /// of `contacts` (the nicknamed) with each of `others` (those so named).
    private struct Key {
        var reason: DuplicateReason
        var contacts: [UInt32]
        var others: [UInt32]?
    }

    /// Contacts are numbered as they first come, and a pair is the two numbers in one integer: a pathological book
    /// pairs millions of times, and hashing two identifier strings each time cost seconds.
    private var identifiers: [String] = []
    private var numbers: [String: UInt32] = [:]
    private var keys: [Key] = []
    /// The kinds of reason each pair has, a bit per ``DuplicateReasonKind/rank``, keyed by `first << 32 | second`,
    /// `first` the number of the lower identifier. Only the kinds: the score counts kinds, and the reasons are
    /// gathered for the page's pairs alone (a book whose contacts share many keys kept an array of reasons for
    /// each of millions of pairs: 900 MB, an outside tester's find).
    private var kinds: [UInt64: UInt8] = [:]
    private let limit: Int
    private let pairLimit: Int

    package init(limit: Int = StoreLimits.duplicateKeySharers, pairLimit: Int = StoreLimits.duplicatePairs) {
        self.limit = limit
        self.pairLimit = pairLimit
    }

    private mutating func number(_ identifier: String) -> UInt32 {
        if let known = numbers[identifier] { return known }
        let new = UInt32(identifiers.count)
        identifiers.append(identifier)
        numbers[identifier] = new
        return new
    }

    /// The pair of two numbered contacts, the lower identifier's number first.
    private func pair(_ one: UInt32, _ other: UInt32) -> UInt64 {
        identifiers[Int(one)] < identifiers[Int(other)]
            ? UInt64(one) << 32 | UInt64(other) : UInt64(other) << 32 | UInt64(one)
    }

    /// Notes a reason of `kind` for `pair`. - Throws: past ``StoreLimits/duplicatePairs`` pairs.
    private mutating func note(_ kind: UInt8, _ pair: UInt64) throws {
        kinds[pair, default: 0] |= kind
        if kinds.count > pairLimit {
            throw StoreError(
                .duplicatePairsExceeded,
                "More than \(pairLimit) pairs of contacts in this address book share an email, a phone number or a "
                    + "name: too many to rank as duplicates.")
        }
    }

    /// Adds the pairs of one shared key, unless too many contacts share it.
    /// - Throws: ``StoreError`` `duplicatePairsExceeded` past ``StoreLimits/duplicatePairs`` pairs in all.
    package mutating func add(_ key: SharedKey) throws {
        // Most name keys belong to one contact: no set for them.
        guard key.contacts.count >= 2 else { return }
        let contacts = Array(Set(key.contacts)).sorted()
        guard contacts.count >= 2, contacts.count <= limit else { return }
        let reason = DuplicateReason(kind: key.kind, value: key.value)
        let numbered = contacts.map { number($0) }
        keys.append(Key(reason: reason, contacts: numbered))
        let bit = UInt8(1) << reason.kind.rank
        for (index, first) in numbered.enumerated() {
            for second in numbered[(index + 1)...] { try note(bit, UInt64(first) << 32 | UInt64(second)) }
        }
    }

    /// Adds the name reasons (``DuplicateReasonKind/fullName``, ``DuplicateReasonKind/familyNameAndOrganization``,
    /// ``DuplicateReasonKind/nickname``) of a book's contacts: one pass, grouping by folded keys.
    /// - Throws: ``StoreError`` `duplicatePairsExceeded` past ``StoreLimits/duplicatePairs`` pairs in all.
    package mutating func add(names contacts: [Names]) throws {
        // Keyed by the folded fields joined with U+0001, which no stored name holds (validation refuses control
        // characters), so "Anne Marie" + "Lee" and "Anne" + "Marie Lee" stay two keys.
        var fullNames: [String: [String]] = [:]
        var organizations: [String: [String]] = [:]
        var familyAndOrganization: [String: [String]] = [:]
        // By name + family: the contacts with that given name, and those with that nickname.
        var givenNames: [String: [String]] = [:]
        var nicknames: [String: [String]] = [:]
        for contact in contacts {
            let given = Self.fold(contact.givenName)
            let family = Self.fold(contact.familyName)
            let organization = Self.fold(contact.organizationName)
            if contact.isOrganization && !organization.isEmpty {
                organizations[organization, default: []].append(contact.identifier)
            }
            guard !family.isEmpty else { continue }
            if !given.isEmpty {
                let key = given + Self.separator + family
                fullNames[key, default: []].append(contact.identifier)
                givenNames[key, default: []].append(contact.identifier)
            }
            if !organization.isEmpty {
                familyAndOrganization[family + Self.separator + organization, default: []].append(contact.identifier)
            }
            let nickname = Self.fold(contact.nickname)
            if !nickname.isEmpty {
                nicknames[nickname + Self.separator + family, default: []].append(contact.identifier)
            }
        }
        for (key, ids) in fullNames where ids.count >= 2 {
            try add(SharedKey(kind: .fullName, value: Self.shown(key, " "), contacts: ids))
        }
        for (value, ids) in organizations where ids.count >= 2 {
            try add(SharedKey(kind: .fullName, value: value, contacts: ids))
        }
        for (key, ids) in familyAndOrganization where ids.count >= 2 {
            try add(SharedKey(kind: .familyNameAndOrganization, value: Self.shown(key, ", "), contacts: ids))
        }
        for (key, nicknameHolders) in nicknames {
            guard let givenNameHolders = givenNames[key] else { continue }
            let (nicknamed, named) = (Set(nicknameHolders), Set(givenNameHolders))
            guard nicknamed.union(named).count <= limit else { continue }
            let reason = DuplicateReason(kind: .nickname, value: Self.shown(key, " "))
            let (ones, others) = (nicknamed.sorted().map { number($0) }, named.sorted().map { number($0) })
            keys.append(Key(reason: reason, contacts: ones, others: others))
            let bit = UInt8(1) << reason.kind.rank
            for one in ones {
                for other in others where one != other { try note(bit, pair(one, other)) }
            }
        }
    }

    /// Drops the pairs already linked into one unified contact (`unified`: each linked contact's unified
    /// identifier): they are one person in the clients' eyes already.
    package mutating func excludeLinked(_ unified: [String: String]) {
        guard !unified.isEmpty else { return }
        let identifiers = self.identifiers
        kinds = kinds.filter { pair, _ in
            guard let first = unified[identifiers[Int(pair >> 32)]] else { return true }
            return first != unified[identifiers[Int(pair & 0xFFFF_FFFF)]]
        }
    }

    /// The page `request` asks for, in the page order: score descending, then the two identifiers.
    ///
    /// Only the page's candidates are built; the others are compared as (score, numbers) without being copied.
    package func page(_ request: DuplicateCandidateRequest, storeID: String) throws -> DuplicateCandidatePage {
        let cursor = try request.after.map { try DuplicateCursor(encoded: $0, storeID: storeID) }
        let identifiers = self.identifiers
        func first(_ pair: UInt64) -> String { identifiers[Int(pair >> 32)] }
        func second(_ pair: UInt64) -> String { identifiers[Int(pair & 0xFFFF_FFFF)] }
        var ranked: [(points: Int, pair: UInt64)] = []
        ranked.reserveCapacity(kinds.count)
        for (pair, mask) in kinds {
            let points = DuplicateReasonKind.scorePoints { mask & (1 << $0.rank) != 0 }
            if let cursor {
                // After the cursor: a lower score, or the same score and higher identifiers.
                guard
                    points < cursor.scorePoints
                        || (points == cursor.scorePoints
                            && (first(pair), second(pair)) > (cursor.firstIdentifier, cursor.secondIdentifier))
                else { continue }
            }
            ranked.append((points, pair))
        }
        func precedes(_ left: (points: Int, pair: UInt64), _ right: (points: Int, pair: UInt64)) -> Bool {
            if left.points != right.points { return left.points > right.points }
            return (first(left.pair), second(left.pair)) < (first(right.pair), second(right.pair))
        }
        // The page's few out of many: a bounded selection rather than a sort of every candidate.
        let top = Self.smallest(request.first, of: ranked, by: precedes)
        let reasons = reasons(of: top.map(\.pair))
        let candidates = top.enumerated().map { index, entry in
            DuplicateCandidate(
                firstIdentifier: first(entry.pair), secondIdentifier: second(entry.pair), reasons: reasons[index])
        }
        var page = DuplicateCandidatePage(
            candidates: candidates, hasNextPage: ranked.count > candidates.count,
            hasPreviousPage: request.after != nil, totalCount: kinds.count)
        page.storeID = storeID
        return page
    }

    /// The reasons of each of `pairs`, in ``DuplicateReason``'s order, at most ``StoreLimits/duplicateReasonsPerKind``
    /// of a kind (the first in that order): one more pass over the keys, looking only at those that hold a contact of
    /// the page.
    private func reasons(of pairs: [UInt64]) -> [[DuplicateReason]] {
        var slots: [UInt64: Int] = [:]
        var onPage = Set<UInt32>()
        for (index, pair) in pairs.enumerated() {
            slots[pair] = index
            onPage.insert(UInt32(pair >> 32))
            onPage.insert(UInt32(pair & 0xFFFF_FFFF))
        }
        var found = Array(repeating: Set<DuplicateReason>(), count: pairs.count)
        func note(_ reason: DuplicateReason, _ one: UInt32, _ other: UInt32) {
            guard one != other else { return }
            // Either order: no identifiers compared.
            if let slot = slots[UInt64(one) << 32 | UInt64(other)] ?? slots[UInt64(other) << 32 | UInt64(one)] {
                found[slot].insert(reason)
            }
        }
        for key in keys {
            let others = key.others ?? key.contacts
            for one in key.contacts where onPage.contains(one) {
                for other in others { note(key.reason, one, other) }
            }
            guard key.others != nil else { continue }
            for other in others where onPage.contains(other) {
                for one in key.contacts { note(key.reason, one, other) }
            }
        }
        return found.map { reasons in
            var perKind = [Int](repeating: 0, count: DuplicateReasonKind.allCases.count)
            return reasons.sorted().filter { reason in
                perKind[reason.kind.rank] += 1
                return perKind[reason.kind.rank] <= StoreLimits.duplicateReasonsPerKind
            }
        }
    }

    /// The `count` first elements of `elements` in `order`, sorted: a sort when they are few, else one pass that
    /// keeps the best `count` in a sorted buffer (`count` is a page size, at most 1,000). The candidates come in
    /// the dictionary's order, which is seeded per process: few of them enter the buffer, about
    /// `count * log(n / count)`.
    private static func smallest<Element>(
        _ count: Int, of elements: [Element], by order: (Element, Element) -> Bool
    ) -> [Element] {
        guard elements.count > count * 4 else { return Array(elements.sorted(by: order).prefix(count)) }
        var best: [Element] = []
        best.reserveCapacity(count + 1)
        for element in elements {
            if best.count == count, let last = best.last, !order(element, last) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let middle = (low + high) / 2
                if order(best[middle], element) { low = middle + 1 } else { high = middle }
            }
            best.insert(element, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    /// Checks the page size and cursor before a backend reads anything.
    package static func validate(_ request: DuplicateCandidateRequest, storeID: String) throws {
        guard (1...StoreLimits.pageSize).contains(request.first) else {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        if let after = request.after { _ = try DuplicateCursor(encoded: after, storeID: storeID) }
    }

    /// A name as the name reasons compare it: folded as search and sorting fold, without surrounding spaces.
    package static func fold(_ name: String) -> String {
        guard !name.isEmpty else { return "" }
        let folded = TextFolding.fold(name)
        // Trimming only when needed: Foundation's trim costs more than the fold of an ASCII name.
        guard folded.first?.isWhitespace == true || folded.last?.isWhitespace == true else { return folded }
        return folded.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let separator = "\u{1}"

    /// A joined key as a reason shows it.
    private static func shown(_ key: String, _ separator: String) -> String {
        key.replacingOccurrences(of: Self.separator, with: separator)
    }
}
