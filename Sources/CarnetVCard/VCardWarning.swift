/// A value of a card that the store could not hold as a key, kept as a vCard property instead: the card
/// imported, nothing of it was lost, and the value comes back out on export as it came in. Also what the import
/// could not keep as written: control characters taken out of a value, lines a card cannot carry.
public struct VCardWarning: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the property that was kept.
    public var line: Int
    /// The 1-based line of the card's BEGIN:VCARD.
    public var cardLine: Int
    /// The key path the store refused (`note`, `phoneNumbers[0].label`, `postalAddresses[1].value.city`), or
    /// the vCard property name when the warning is about a reference (`RELATED`, `MEMBER`).
    public var key: String
    /// What happened, without the value (it may be personal data).
    public var message: String

    /// A warning; the reader and importer make their own.
    public init(line: Int, cardLine: Int, key: String, message: String) {
        self.line = line
        self.cardLine = cardLine
        self.key = key
        self.message = message
    }

    /// `line 14: note: over the store's limits, kept as a vCard property (card at line 9)`.
    public var description: String { "line \(line): \(key): \(message) (card at line \(cardLine))" }
}
