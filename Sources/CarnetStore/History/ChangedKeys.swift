/// How a history event's changed keys are stored: their raw values joined by commas (`givenName,emailAddresses`).
package enum ChangedKeys {
    package static func storage(_ keys: [ContactKey]) -> String {
        keys.map(\.rawValue).joined(separator: ",")
    }

    /// The keys of a stored list, in order; names no key has (from a newer version) are left out. Read by bytes:
    /// splitting by Characters ran grapheme breaking over every update event a history page reads.
    package static func keys(_ stored: String) -> [ContactKey] {
        stored.utf8.split(separator: UInt8(ascii: ",")).compactMap { ContactKey(rawValue: String(Substring($0))) }
    }
}
