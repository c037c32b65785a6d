import Foundation

/// A progress bar on standard error, drawn only when standard error is a terminal (scripts get the summary alone).
final class ProgressBar: Sendable {
    let label: String
    let total: Int
    let isTerminal = isatty(STDERR_FILENO) == 1

    init(label: String, total: Int) {
        self.label = label
        self.total = total
    }

    func update(_ done: Int) {
        guard isTerminal else { return }
        let fraction = min(1, Double(done) / Double(max(total, 1)))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total) cards".utf8))
    }

    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
