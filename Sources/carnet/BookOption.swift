import ArgumentParser
import CarnetStore
import Foundation

/// `--book`: which address book a local command works on.
struct BookOption: ParsableArguments {
    @Option(help: "The address book's id (`carnet book list`). Default: the admin's default book, carnet.sqlite.")
    var book: String?

    /// Opens the chosen book's store (creating the data folder's catalog if needed).
    func openStore(_ data: DataOptions) async throws -> CarnetStore {
        guard let book else { return try data.openStore() }
        let path = try await data.withFolder { folder in
            guard let found = try await folder.catalog.book(id: book) else {
                throw ValidationError("No address book has id \(book).")
            }
            return folder.books.path(of: found)
        }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return try CarnetStore.open(path: path)
    }
}
