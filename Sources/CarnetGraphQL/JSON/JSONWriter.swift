import Foundation

/// Writes JSON straight into bytes, in the order it is told: the executor's output path.
///
/// Commas are automatic: `key(_:)` and `comma()` insert one when the container already has a member.
/// `truncate(to:)` rolls output back, which is how a null propagates up to the nearest nullable field.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Per open container: whether it has a member yet.
    private var hasMember: [Bool] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
    public var count: Int { bytes.count }

    /// A position to roll back to, with the container state at that point.
    struct Mark {
        let offset: Int
        let depth: Int
        let hadMember: Bool
    }

    var mark: Mark { Mark(offset: bytes.count, depth: hasMember.count, hadMember: hasMember.last ?? false) }

    mutating func rollBack(to mark: Mark) {
        bytes.removeSubrange(mark.offset...)
        hasMember.removeSubrange(mark.depth...)
        if !hasMember.isEmpty { hasMember[hasMember.count - 1] = mark.hadMember }
    }

    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        hasMember.removeLast()
    }

    public mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        hasMember.append(false)
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        hasMember.removeLast()
    }

    /// Separates array elements; call before each element.
    public mutating func comma() {
        if hasMember[hasMember.count - 1] {
            bytes.append(UInt8(ascii: ","))
        } else {
            hasMember[hasMember.count - 1] = true
        }
    }

    /// Writes an object key (and the comma before it when needed).
    public mutating func key(_ key: String) {
        comma()
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a key known to need no escaping, already quoted: `"name":`.
    mutating func rawKey(_ quoted: [UInt8]) {
        comma()
        bytes.append(contentsOf: quoted)
    }

    public mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    public mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
    }

    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    public mutating func double(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int(value)).utf8)
        } else if value.isFinite {
            bytes.append(contentsOf: "\(value)".utf8)
        } else {
            null()
        }
    }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = value.utf8
        let fast = utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            for byte in buffer where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                return false
            }
            bytes.append(contentsOf: buffer)
            return true
        }
        if fast != true {
            if fast == nil {
                var copy = value
                copy.makeContiguousUTF8()
                utf8 = copy.utf8
            }
            escape(utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ utf8: String.UTF8View) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
            case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
            case ..<0x20:
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }

    /// Appends bytes that already are a JSON value.
    public mutating func raw(_ json: some Sequence<UInt8>) { bytes.append(contentsOf: json) }
}
