import Foundation

/// How much of the machine other processes used while the benchmark ran (a build or a test run on the same two
/// cores skews the timings): the machine's busy CPU time from /proc/stat, minus this process's own.
struct Contention: Sendable {
    private var machineBusy: Double
    private var own: Double
    private var start: ContinuousClock.Instant

    static func start() -> Contention {
        Contention(machineBusy: machineBusySeconds(), own: ownSeconds(), start: Stopwatch.clock.now)
    }

    /// The share of all cores that other processes kept busy since `start()`, from 0 to 1.
    func othersShare() -> Double {
        let wall = (Stopwatch.clock.now - start).seconds
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        guard wall > 0 else { return 0 }
        let others = (Self.machineBusySeconds() - machineBusy) - (Self.ownSeconds() - own)
        return max(0, min(1, others / (wall * cores)))
    }

    private static let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// user + nice + system + irq + softirq + steal of the `cpu` line, in seconds.
    private static func machineBusySeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return 0 }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return 0 }
        return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) / ticks
    }

    /// utime + stime of this process (fields 14 and 15 of /proc/self/stat), in seconds.
    private static func ownSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / ticks
    }
}
