/// Rules for record identifiers.
public enum Identifiers {
    /// 1 to ``StoreLimits/identifierBytes`` characters from `A-Z a-z 0-9 . _ : -`, so identifiers survive URLs,
    /// vCard UIDs and logs without escaping.
    public static func isValid(_ identifier: String) -> Bool {
        let utf8 = identifier.utf8
        guard !utf8.isEmpty, utf8.count <= StoreLimits.identifierBytes else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }
}

/// What kind of thing an identifier named, in `retiredIdentifier`.
package enum RetiredKind: Int {
    case contact = 1
    case group = 2
    case labeledValue = 3
    case container = 4
    /// A unified contact's identifier (``LinkGroup``).
    case unified = 5
}
