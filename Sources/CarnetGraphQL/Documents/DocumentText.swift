#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A document's text as a cache key, hashed once, outside the cache's lock, and over its UTF-8 bytes.
///
/// `String`'s own hashing works on Unicode scalars in normal form, which for a query of a few hundred bytes costs
/// more than the rest of a cache hit; two texts that differ in their bytes are different documents to the
/// parser anyway.
struct DocumentText: Hashable, Sendable {
    let text: String
    private let hash: Int

    init(_ text: String) {
        var text = text
        var hasher = Hasher()
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        self.text = text
        self.hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (a: DocumentText, b: DocumentText) -> Bool {
        guard a.hash == b.hash else { return false }
        var (x, y) = (a.text, b.text)
        // memcmp: `elementsEqual` walks the bytes one iterator step at a time, a tenth of a point read for a query.
        return x.withUTF8 { p in
            y.withUTF8 { q in p.count == q.count && (p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0)
            }
        }
    }
}
