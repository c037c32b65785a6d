/// An error from the record store, with a stable code modeled on `CNErrorCode`.
///
/// Messages name record identifiers and key paths, never contact data, so errors are safe to log.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable error codes. Raw values are the wire form (`extensions.code` in GraphQL).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// An updated, deleted or referenced record does not exist (CNErrorCode 200).
        case recordDoesNotExist = "RECORD_DOES_NOT_EXIST"
        /// An added record's identifier is, or was, in use (201).
        case insertedRecordAlreadyExists = "INSERTED_RECORD_ALREADY_EXISTS"
        /// A group member from another container than the group's (203).
        case containmentScope = "CONTAINMENT_SCOPE"
        /// A malformed identifier, or one that names no value of the record (205).
        case recordIdentifierInvalid = "RECORD_IDENTIFIER_INVALID"
        /// One or more properties are invalid; ``StoreError/keyPaths`` names each (300).
        case validationFailed = "VALIDATION_FAILED"
        /// An update based on an older revision touches keys changed since; ``StoreError/keyPaths`` names them.
        case conflict = "CONFLICT"
        /// A fetch request is malformed: a bad cursor, page size or predicate (400).
        case predicateInvalid = "PREDICATE_INVALID"
        /// The database is busy (another writer held its lock past the busy timeout): nothing was written; retry
        /// after ``StoreError/retryAfter`` (CNErrorCode 1, communication error).
        case unavailable = "UNAVAILABLE"
        /// The disk, or the database's size limit, is full: nothing was written (2, data access error).
        case storageFull = "STORAGE_FULL"
        /// The database cannot be read or written: an I/O error, a damaged or read-only file (2).
        case storageFailure = "STORAGE_FAILURE"
        /// A principal's quota (address books, contacts per book) is reached: nothing was written.
        case quotaExceeded = "QUOTA_EXCEEDED"
        /// The principal may see the record but not do this to it (a reader saving, a grantee sharing).
        case forbidden = "FORBIDDEN"
        /// A link operation that cannot apply: linking a contact with itself, unlinking a contact that is not
        /// linked, a unified contact past its member limit, an update through a unified contact that no member can
        /// hold. ``StoreError/affectedRecordIdentifiers`` names the contacts.
        case linkInvalid = "LINK_INVALID"
        /// A read would load more bytes of values than its caller allows (``ReadAllowance``): the response could
        /// not hold them. Ask for smaller pages or fewer large fields.
        case responseTooLarge = "MAX_RESPONSE_BYTES_EXCEEDED"
        /// A save ran to its ``SaveRequest/deadline`` before its last operation: it was rolled back, nothing was
        /// written. Split it into smaller saves.
        case executionTimeExceeded = "MAX_EXECUTION_TIME_EXCEEDED"
        /// A duplicate search would rank more than ``StoreLimits/duplicatePairs`` pairs of contacts.
        case duplicatePairsExceeded = "MAX_DUPLICATE_PAIRS_EXCEEDED"

        /// The closest `CNErrorCode` value; conflicts have no Apple counterpart and use 1001.
        public var numericValue: Int {
            switch self {
            case .recordDoesNotExist: 200
            case .insertedRecordAlreadyExists: 201
            case .containmentScope: 203
            case .recordIdentifierInvalid: 205
            case .validationFailed: 300
            case .predicateInvalid: 400
            case .conflict: 1001
            case .quotaExceeded: 1002
            case .linkInvalid: 1003
            case .responseTooLarge: 1004
            case .executionTimeExceeded: 1005
            case .duplicatePairsExceeded: 1006
            case .forbidden: 100
            case .unavailable: 1
            case .storageFull, .storageFailure: 2
            }
        }
    }

    public var code: Code
    /// What went wrong, for people; names identifiers and key paths only.
    public var message: String
    /// The identifiers of the records at fault.
    public var affectedRecordIdentifiers: [String]
    /// The position of the failing operation in its save request.
    public var operationIndex: Int?
    /// For validation errors and conflicts: the key paths at fault (`emailAddresses[1].value`, `birthday.month`).
    public var keyPaths: [String]
    /// For ``Code/unavailable``: how long to wait before trying again.
    public var retryAfter: Duration?
    /// What happened, without the advice the message adds ("nothing was written. Retry shortly."): for an edge that
    /// reports the error after a commit, where that advice would be wrong.
    public var cause: String?

    public init(
        _ code: Code, _ message: String, affected: [String] = [], operationIndex: Int? = nil, keyPaths: [String] = []
    ) {
        self.code = code
        self.message = message
        self.affectedRecordIdentifiers = affected
        self.operationIndex = operationIndex
        self.keyPaths = keyPaths
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let operationIndex { text += " (operation \(operationIndex))" }
        if !keyPaths.isEmpty { text += " [\(keyPaths.joined(separator: ", "))]" }
        return text
    }

    /// `unavailable`, nothing written, to be tried again in a second: the database is busy, restarting or out of
    /// reach. `what` says which.
    public static func unavailable(_ what: String) -> StoreError {
        var error = StoreError(.unavailable, "\(what); nothing was written. Retry shortly.")
        error.retryAfter = .seconds(1)
        error.cause = what
        return error
    }

    package func at(operation index: Int) -> StoreError {
        var copy = self
        copy.operationIndex = copy.operationIndex ?? index
        return copy
    }
}
