import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// The import on a fresh database, contacts only: through the store, and as hand-written inserts of the same
/// rows, and of the same rows but one name index (what the second, given-name-order index costs).
enum ImportFloor {
    static func run(generator: DataGenerator, count: Int, directory: String) async throws -> OperationResult {
        log("  Import of \(count) contacts on a fresh database (store, SQL, SQL with one name index)")
        let batches = stride(from: 0, to: count, by: Dataset.batchSize).map { start in
            (start..<min(count, start + Dataset.batchSize)).map { generator.person($0) }
        }
        let carnetPath = "\(directory)/import-carnet.sqlite"
        clean(carnetPath)
        let store = try SQLiteStore.open(path: carnetPath)
        var carnetSeconds = 0.0
        for batch in batches {
            var request = SaveRequest(transactionAuthor: "carnet-bench-import")
            for person in batch { request.add(person.contact) }
            let request2 = request
            carnetSeconds += try await Stopwatch.time { try await store.execute(request2) }.seconds
        }
        try await store.close()
        clean(carnetPath)

        let identified = identify(batches)
        var familyOnly = RawSave.Options()
        familyOnly.nameTables = ["contactNameFamily"]
        var raw: [Double] = []
        for options in [RawSave.Options(), familyOnly] {
            raw.append(try await rawImport(identified, directory: directory, pragmas: [], options: options))
        }
        let ms = { (seconds: Double) in Stats(microseconds: [seconds * 1e6]) }
        return OperationResult(
            name: "Import \(Report.count(count)) contacts, fresh database", carnet: ms(carnetSeconds), raw: ms(raw[0]),
            note: String(
                format: "one run, batches of %d, no groups; SQL without the given-name-order index: %.2f s",
                Dataset.batchSize, raw[1]))
    }

    /// Identifiers made as the store makes them, before the clock starts.
    static func identify(_ batches: [[Person]]) -> [[Person]] {
        batches.map { batch in
            batch.map { person in
                var person = person
                person.identifier = Contact.makeIdentifier()
                return person
            }
        }
    }

    /// Seconds to insert the batches by hand into a fresh database set up with `pragmas`.
    static func rawImport(
        _ batches: [[Person]], directory: String, pragmas: [String], options: RawSave.Options = RawSave.Options()
    ) async throws -> Double {
        let path = "\(directory)/import-raw.sqlite"
        clean(path)
        try await SQLiteStore.open(path: path).close()  // the schema
        let pool = try RawDatabase.open(path: path)
        for pragma in pragmas {
            try await pool.writeWithoutTransaction { db in try db.execute(sql: pragma) }
        }
        let container = try await pool.read { db in try RawSave.defaultContainer(db) }
        var seconds = 0.0
        for batch in batches {
            seconds += try await Stopwatch.time {
                try await pool.write { db in try RawSave.save(db, batch, container: container, options: options) }
            }.seconds
        }
        try pool.close()
        clean(path)
        return seconds
    }

    private static func clean(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
