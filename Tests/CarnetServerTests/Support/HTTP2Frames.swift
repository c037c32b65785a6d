/// HTTP/2 frames written and read byte by byte (RFC 9113 4.1), for tests whose client must misbehave.
enum HTTP2Frames {
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + bigEndian(stream) + payload
    }

    /// A POST's header block in HPACK (RFC 7541) without Huffman coding or the dynamic table: `:method POST`,
    /// `:scheme https` from the static table, the rest literal with an indexed name.
    static func requestHeaders(path: String, token: String) -> [UInt8] {
        func literal(_ prefix: [UInt8], _ value: String) -> [UInt8] {
            precondition(value.utf8.count < 127)
            return prefix + [UInt8(value.utf8.count)] + Array(value.utf8)
        }
        return [0x83, 0x87] + literal([0x04], path) + literal([0x01], "localhost")
            + literal([0x0F, 0x10], "application/json") + literal([0x0F, 0x08], "Bearer \(token)")
    }

    /// The last-stream identifiers of the GOAWAY frames among the frames a server sent, in order.
    static func goAwayLastStreams(_ bytes: [UInt8]) -> [UInt32] {
        var result: [UInt32] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            if bytes[offset + 3] == 0x7, length >= 8 {
                let start = offset + 9
                result.append(bytes[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF)
            }
            offset += 9 + length
        }
        return result
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
