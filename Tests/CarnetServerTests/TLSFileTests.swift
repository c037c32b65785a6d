import CarnetServer
import Crypto
import Foundation
import Testing
import X509

/// The TLS files on disk: made once however many servers start at once, and named when they cannot be read.
@Suite("TLS files")
struct TLSFileTests {
    /// An outside tester's find: two servers starting at once on a new folder each made a CA; one then served a
    /// certificate that ca.pem did not sign, or failed reading the other's half-written key.
    @Test("Starts at once on a new folder make one CA, which signs the server certificate of its key")
    func concurrentFirstStarts() throws {
        for round in 0..<12 {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("carnet-tls-race-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try DevelopmentCertificates.ensure(in: directory) } catch { failures.add("\(error)") }
            }
            #expect(failures.all.isEmpty, "round \(round)")
            let caPath = directory + "/" + DevelopmentCertificates.caFileName
            let ca = try Certificate(pemEncoded: String(contentsOfFile: caPath, encoding: .utf8))
            let caKey = try P256.Signing.PrivateKey(
                pemRepresentation: String(contentsOfFile: directory + "/ca-key.pem", encoding: .utf8))
            let chain = try String(contentsOfFile: directory + "/server.pem", encoding: .utf8)
            let end = try #require(chain.range(of: "-----END CERTIFICATE-----"))
            let leaf = try Certificate(pemEncoded: String(chain[..<end.upperBound]))
            let key = try P256.Signing.PrivateKey(
                pemRepresentation: String(contentsOfFile: directory + "/server-key.pem", encoding: .utf8))
            #expect(ca.publicKey == Certificate.PublicKey(caKey.publicKey), "round \(round)")
            #expect(ca.publicKey.isValidSignature(leaf.signature, for: leaf), "round \(round)")
            #expect(leaf.publicKey == Certificate.PublicKey(key.publicKey), "round \(round)")
        }
    }

    @Test("A key file that cannot be read is named in the error")
    func unreadableKey() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("carnet-tls-bad-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let issued = try DevelopmentCertificates.ensure(in: directory)
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: issued.privateKeyPath))
        do {
            try await withServer({
                $0.transport = .certificateFiles(chain: issued.certificatePath, privateKey: issued.privateKeyPath)
            }) { _ in Issue.record("The server started with a damaged key") }
        } catch {
            #expect("\(error)".contains(issued.privateKeyPath))
            #expect("\(error)".contains("private key"))
        }
    }
}

/// Errors collected from concurrent work.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
