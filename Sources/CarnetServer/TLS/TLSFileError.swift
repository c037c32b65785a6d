/// A TLS certificate or key file that could not be read, named with its path (NIOSSL's own error said only
/// `failedToLoadPrivateKey`).
struct TLSFileError: Error, CustomStringConvertible {
    let path: String
    let what: String
    let underlying: any Error

    var description: String {
        "Cannot load the TLS \(what) from \(path) (\(underlying)): it must be PEM. With the development "
            + "certificate, delete server.pem and server-key.pem from that folder to have new ones made."
    }

    /// Runs `load` on `path`, naming the file in its error.
    static func loading<T>(_ path: String, _ what: String, _ load: (String) throws -> T) throws -> T {
        do {
            return try load(path)
        } catch {
            throw TLSFileError(path: path, what: what, underlying: error)
        }
    }
}
