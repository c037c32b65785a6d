import CarnetStore
import Foundation

/// The detailed report (`--report FILE`), composed from every size's saved results; BENCHMARKS.md keeps only
/// the summary.
enum Document {
    static func pragmas(_ list: [String]) -> String {
        list.isEmpty ? "SQLite's defaults" : list.map { "`\($0)`" }.joined(separator: ", ")
    }

    static func markdown(_ results: [SizeResult]) -> String {
        guard let last = results.last else { return "# Benchmarks\n\nNo results yet.\n" }
        let m = last.machine
        let sizes = results.map { Report.count($0.size) }.joined(separator: ", ")
        var text = """
            # Benchmarks

            The store benchmark (`Benchmarks/Tools/carnet-bench`): a generated contact list (names in many languages with \
            diacritics, 1–3 phones in US, UK, French and German formats, 1–3 emails, 0–2 postal addresses, \
            organizations, birthdays, groups with members), imported through the store API, then each operation \
            timed through Carnet and as the same query written by hand in SQL on the same database file.

            - Machine: \(m.cpu), \(m.cores) cores, \(String(format: "%.0f", m.memoryGB)) GB RAM, \(m.os)
            - Build: \(m.buildMode), \(m.swift), SQLite \(m.sqlite), GRDB 7.10
            - Store: commit \(m.revision); default `StoreConfiguration`, whose connection settings the SQL floor's \
            connections copy (read from the store's statement trace): writer \(pragmas(last.settings.writer)), \
            readers \(pragmas(last.settings.readers))
            - Date: \(ISO8601DateFormatter().string(from: last.date))
            - Sizes: \(sizes) contacts

            Run it with:

            ```sh
            CARNET_BENCHMARKS=1 swift build -c release --product carnet-bench
            .build/release/carnet-bench --sizes 10000,100000,1000000 --report store-report.md
            ```

            Databases and per-size results are kept in `--directory` (default `/tmp/carnet-bench`) and reused when \
            they match; `--report-only` rewrites this file from them.

            How to read the tables: **Carnet** is the public API (`store.contacts`, `store.contact(withIdentifier:)`, \
            `store.execute`, `store.changeHistory`). **SQL** is the same work written by hand (cached statements, \
            the same decoding into Swift values) run through GRDB's async `pool.read`/`pool.write`, the calling \
            convention the store uses: the ratio compares Carnet with it. **SQL sync** is the same SQL called \
            synchronously, without the async hop: the absolute floor. Searches and pages return the first 50 contacts \
            sorted by family name with `givenName` and `familyName`; fetch by id reads `givenName`, `familyName`, \
            `organizationName`, `jobTitle`, `birthday`, `phoneNumbers`, `emailAddresses`, `postalAddresses`. \
            The SQL name search reads the first 51 matches in the name index's order (its rowids follow the \
            family-name order) and sorts them; the notes give the same search written as a plain \
            `ORDER BY c.sortFamily` over every match. Each comparison first checks on 20 inputs that Carnet and the \
            SQL return as many results, and says so in the notes when they do not. \
            Percentiles use the nearest rank over every timed iteration (p99 of 20 runs is the largest but one).

            ## Goals

            \(Goals.table(results))

            ## Results

            """
        for result in results { text += Report.section(result) + "\n" }
        text += """
            ## Phone numbers across conventions

            A number stored in the international format, searched as typed in the national format \
            (\(Report.count(last.size)) contacts):

            \(Report.phoneChecks(last.phoneFormats))

            ## Names typed without their marks

            The name search on a few names, typed as people type them (a check of the store's folding, in a small \
            in-memory store):

            \(Report.folding(last.folding))

            ## Query plans

            The SQL the store ran for each operation (captured with `StoreConfiguration.statementTrace`, \
            \(Report.count(last.size)) contacts) and its `EXPLAIN QUERY PLAN`. A step that reads a whole table \
            (`SCAN` with no index) is flagged.

            \(Report.plans(last.plans))
            """
        return text
    }
}
