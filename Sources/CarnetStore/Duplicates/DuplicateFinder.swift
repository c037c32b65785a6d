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

    private struct Pair: Hashable {
        let first: String
        let second: String
    }

    private var reasons: [Pair: Set<DuplicateReason>] = [:]
    private let limit: Int

    package init(limit: Int = StoreLimits.duplicateKeySharers) { self.limit = limit }

    /// Adds the pairs of one shared key, unless too many contacts share it.
    package mutating func add(_ key: SharedKey) {
        // Most name keys belong to one contact: no set for them.
        guard key.contacts.count >= 2 else { return }
        let contacts = Array(Set(key.contacts)).sorted()
        guard contacts.count >= 2, contacts.count <= limit else { return }
        let reason = DuplicateReason(kind: key.kind, value: key.value)
        for (index, first) in contacts.enumerated() {
            for second in contacts[(index + 1)...] {
                reasons[Pair(first: first, second: second), default: []].insert(reason)
            }
        }
    }

    /// Adds the name reasons (``DuplicateReasonKind/fullName``, ``DuplicateReasonKind/familyNameAndOrganization``,
    /// ``DuplicateReasonKind/nickname``) of a book's contacts: one pass, grouping by folded keys.
    package mutating func add(names contacts: [Names]) {
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
            add(SharedKey(kind: .fullName, value: Self.shown(key, " "), contacts: ids))
        }
        for (value, ids) in organizations where ids.count >= 2 {
            add(SharedKey(kind: .fullName, value: value, contacts: ids))
        }
        for (key, ids) in familyAndOrganization where ids.count >= 2 {
            add(SharedKey(kind: .familyNameAndOrganization, value: Self.shown(key, ", "), contacts: ids))
        }
        for (key, nicknameHolders) in nicknames {
            guard let givenNameHolders = givenNames[key] else { continue }
            let (nicknamed, named) = (Set(nicknameHolders), Set(givenNameHolders))
            guard nicknamed.union(named).count <= limit else { continue }
            let reason = DuplicateReason(kind: .nickname, value: Self.shown(key, " "))
            for one in nicknamed {
                for other in named where one != other {
                    reasons[Pair(first: min(one, other), second: max(one, other)), default: []].insert(reason)
                }
            }
        }
    }

    /// Drops the pairs already linked into one unified contact (`unified`: each linked contact's unified
    /// identifier): they are one person in the clients' eyes already.
    package mutating func excludeLinked(_ unified: [String: String]) {
        guard !unified.isEmpty else { return }
        reasons = reasons.filter { pair, _ in
            guard let first = unified[pair.first] else { return true }
            return first != unified[pair.second]
        }
    }

    /// Every candidate, in the page order: score descending, then the two identifiers.
    package func candidates() -> [DuplicateCandidate] {
        reasons.map { pair, reasons in
            DuplicateCandidate(firstIdentifier: pair.first, secondIdentifier: pair.second, reasons: reasons.sorted())
        }
        .map { ($0.scorePoints, $0) }
        .sorted { left, right in
            if left.0 != right.0 { return left.0 > right.0 }
            if left.1.firstIdentifier != right.1.firstIdentifier {
                return left.1.firstIdentifier < right.1.firstIdentifier
            }
            return left.1.secondIdentifier < right.1.secondIdentifier
        }
        .map(\.1)
    }

    /// The page `request` asks for.
    package func page(_ request: DuplicateCandidateRequest) throws -> DuplicateCandidatePage {
        let all = candidates()
        var start = 0
        if let after = request.after {
            let cursor = try DuplicateCursor(encoded: after)
            start = all.firstIndex(where: cursor.precedes) ?? all.count
        }
        let end = min(all.count, start + request.first)
        return DuplicateCandidatePage(
            candidates: Array(all[start..<end]), hasNextPage: end < all.count, hasPreviousPage: request.after != nil,
            totalCount: all.count)
    }

    /// Checks the page size and cursor before a backend reads anything.
    package static func validate(_ request: DuplicateCandidateRequest) throws {
        guard (1...StoreLimits.pageSize).contains(request.first) else {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        if let after = request.after { _ = try DuplicateCursor(encoded: after) }
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
