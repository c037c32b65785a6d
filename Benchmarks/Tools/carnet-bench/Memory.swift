import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's memory as Linux reports it in /proc/self/status.
enum Memory {
    /// Resident set size now, in bytes.
    static var residentBytes: Int { status("VmRSS") }

    /// The anonymous part of the resident set (heap and stacks, not file pages), in bytes.
    static var anonymousBytes: Int { status("RssAnon") }

    /// The file-backed part of the resident set (libraries, and database pages SQLite maps), in bytes.
    static var fileBytes: Int { status("RssFile") }

    /// Returns freed heap memory to the system, so the RSS that follows measures what is in use.
    static func trim() {
        #if canImport(Glibc)
            // malloc_trim is glibc's, declared in <malloc.h>, which the Glibc module does not export.
            typealias MallocTrim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: MallocTrim.self)(0) }
        #endif
    }

    private static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number =
                line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) } ?? 0
            return number * 1024
        }
        return 0
    }
}
