import Foundation
import GRDB

extension Machine {
    static func current(sqlite: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os =
            osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? ProcessInfo.processInfo.operatingSystemVersionString
        #if DEBUG
            let mode = "debug (numbers are not meaningful: build with -c release)"
        #else
            let mode = "release"
        #endif
        #if compiler(>=6.3)
            let swift = "Swift 6.3 or later"
        #else
            let swift = "Swift 6.1–6.2"
        #endif
        return Machine(
            cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, os: os, sqlite: sqlite,
            swift: swift, buildMode: mode, revision: Revision.atLaunch)
    }
}
