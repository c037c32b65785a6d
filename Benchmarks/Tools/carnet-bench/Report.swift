import Foundation

/// The results as Markdown: a table per size, the goals, the query plans.
enum Report {
    static func milliseconds(_ microseconds: Double) -> String {
        let ms = microseconds / 1000
        switch ms {
        case ..<10: return String(format: "%.3f ms", ms)
        case ..<100: return String(format: "%.2f ms", ms)
        default: return String(format: "%.1f ms", ms)
        }
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    static func ratio(_ a: Double, _ b: Double?) -> String {
        guard let b, b > 0 else { return "–" }
        return String(format: "%.1f×", a / b)
    }

    static func count(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }

    /// The results table of one size.
    static func table(_ result: SizeResult) -> String {
        var lines = [
            "| Operation | Carnet p50 | Carnet p99 | SQL p50 | SQL p99 | Carnet ÷ SQL p50 / p99 | SQL sync p50 | SQL sync p99 | Notes |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for op in result.operations {
            let name = op.isDetail ? "&nbsp;&nbsp;" + op.name : op.name
            lines.append(
                [
                    name, milliseconds(op.carnet.p50), milliseconds(op.carnet.p99),
                    op.raw.map { milliseconds($0.p50) } ?? "–", op.raw.map { milliseconds($0.p99) } ?? "–",
                    "\(ratio(op.carnet.p50, op.raw?.p50)) / \(ratio(op.carnet.p99, op.raw?.p99))",
                    op.rawSync.map { milliseconds($0.p50) } ?? "–", op.rawSync.map { milliseconds($0.p99) } ?? "–",
                    op.note ?? "",
                ].joined(separator: " | ").wrappedAsRow)
        }
        return lines.joined(separator: "\n")
    }

    static func concurrency(_ result: SizeResult) -> String {
        var text = ""
        if !result.concurrentBenchmarks.isEmpty {
            text +=
                "\n\n**Another benchmark ran on the machine during this run, so these timings are skewed:** "
                + result.concurrentBenchmarks.map { "`\($0)`" }.joined(separator: ", ") + "."
        }
        let shares = [("the import", result.dataset.importContention), ("the timings", result.contention)]
        let busy = shares.compactMap { name, share in share.map { (name, $0) } }
        if busy.contains(where: { $0.1 > 0.05 }) {
            text +=
                "\n\n**Other processes shared the machine:** they kept "
                + busy.map { String(format: "%.0f%% of the cores busy during %@", $0.1 * 100, $0.0) }
                .joined(separator: " and ") + "; those numbers are pessimistic."
        } else if !busy.isEmpty {
            text += "\n\nThe machine was otherwise idle (other processes used under 5% of the cores)."
        }
        return text
    }

    static func importSummary(_ info: DatasetInfo) -> String {
        let per100k = info.importStoreSeconds * 100_000 / Double(info.size)
        var text = String(
            format: "Import through `store.execute` (save requests of %d contacts plus their memberships): "
                + "**%.2f s** in the store (%.2f s with generating the data), %.2f s per 100,000 contacts, "
                + "%@ contacts/s.", info.batchSize, info.importStoreSeconds, info.importWallSeconds, per100k,
            count(Int(Double(info.size) / info.importStoreSeconds)))
        if info.secondsPer100kBlock.count > 1 {
            text +=
                " Each successive 100,000: "
                + info.secondsPer100kBlock.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " s."
        }
        return text
    }

    static func streams(_ streams: [StreamResult]) -> String {
        var lines = [
            "| Stream (pages of 1,000, 8 keys) | Pages | Events | Time | Heap before | after 10% | after 50% | at the end | Peak | Growth | Growth after 10% | Mapped file pages before → peak |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for s in streams {
            lines.append(
                [
                    s.name, count(s.pages), count(s.events), String(format: "%.1f s", s.seconds),
                    megabytes(s.heapBefore),
                    megabytes(s.heapProgress.first ?? 0), megabytes(s.heapProgress.count > 4 ? s.heapProgress[4] : 0),
                    megabytes(s.heapProgress.last ?? 0), megabytes(s.heapPeak), megabytes(s.growth),
                    megabytes(s.growthAfterFirstTenth), "\(megabytes(s.fileBefore)) → \(megabytes(s.filePeak))",
                ].joined(separator: " | ").wrappedAsRow)
        }
        return lines.joined(separator: "\n")
    }

    static func phoneChecks(_ checks: [PhoneFormatCheck]) -> String {
        var lines = [
            "| Stored as | Example: stored → typed | Found |",
            "| --- | --- | ---: |",
        ]
        for c in checks {
            lines.append(
                "| \(c.country), international | `\(c.example)` → `\(c.exampleQuery)` | \(c.found) / \(c.tried) |")
        }
        return lines.joined(separator: "\n")
    }

    static func folding(_ cases: [FoldCheck.Case]) -> String {
        var lines = ["| Contact | Typed | Found |", "| --- | --- | --- |"]
        for c in cases { lines.append("| \(c.name) | `\(c.typed)` | \(c.found ? "yes" : "**no**") |") }
        return lines.joined(separator: "\n")
    }

    static func plans(_ plans: [PlanResult]) -> String {
        plans.map { plan in
            let flag = plan.fullScans.isEmpty ? "" : " — **full scan: \(plan.fullScans.joined(separator: "; "))**"
            return
                "**\(plan.operation)**\(flag)\n\n```sql\n\(plan.sql.trimmingCharacters(in: .whitespacesAndNewlines))\n```\n\n```\n"
                + plan.plan.joined(separator: "\n") + "\n```\n"
        }.joined(separator: "\n")
    }

    static func section(_ result: SizeResult) -> String {
        let d = result.dataset
        return """
            ### \(count(result.size)) contacts

            Data set: \(count(d.size)) contacts, \(count(d.groupCount)) groups, \(count(d.membershipCount)) memberships, \
            \(count(d.importEvents)) history events from the import, \(megabytes(Int(d.fileBytes))) database \
            (generated \(ISO8601DateFormatter().string(from: d.createdAt)) by commit \(d.revision ?? "unknown")). Run \(ISO8601DateFormatter().string(from: result.date)), \
            \(result.iterations) timed iterations per read.

            \(importSummary(d))\(concurrency(result))

            \(table(result))

            \(streams(result.streams))

            """
    }
}

extension String {
    var wrappedAsRow: String { "| " + self + " |" }
}
