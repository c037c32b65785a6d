/// 64-bit FNV-1a: a fast, stable hash of bytes (the same in every process, unlike `Hasher`), for checksums and
/// filters that are no secret.
package struct FNV1a {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func combine(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

    package mutating func combine(_ bytes: some Sequence<UInt8>) { for byte in bytes { combine(byte) } }
}
