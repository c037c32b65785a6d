import AsyncHTTPClient
import CarnetServer
import Foundation
import NIOSSL
import Testing
import X509

@Suite("TLS listener")
struct TLSTests {
    @Test("HTTP/1.1 and HTTP/2 on one port, chosen by ALPN, with the certificate verified against the dev CA")
    func bothVersions() async throws {
        try await withServer { server in
            let token = try await server.token()
            for http2 in [false, true] {
                let reply = try await TestClient.with(server, http2: http2) { client in
                    try await client.graphql("{ __typename }", token: token)
                }
                #expect(reply.status == 200)
                #expect(reply.body == #"{"data":{"__typename":"Query"}}"#)
                #expect(reply.version == (http2 ? .http2 : .http1_1))
            }
        }
    }

    @Test("HEAD gets GET's head without a body, over HTTP/1.1 and HTTP/2, and the connection carries on")
    func head() async throws {
        try await withServer { server in
            let token = try await server.token()
            for http2 in [false, true] {
                try await TestClient.with(server, http2: http2) { client in
                    for (path, status) in [("/healthz", 200), ("/readyz", 200), ("/nothere", 404), ("/graphql", 405)] {
                        let reply = try await client.send(.HEAD, path: path)
                        #expect(reply.status == status, "\(path) http2: \(http2)")
                        #expect(reply.body.isEmpty, "\(path) http2: \(http2)")
                        #expect(reply.version == (http2 ? .http2 : .http1_1))
                    }
                    #expect(try await client.send(.HEAD, path: "/healthz").header("Content-Length") == "15")
                    // Over HTTP/2 a body on a HEAD stream was a stream error that ended the whole connection.
                    let after = try await client.graphql("{ __typename }", token: token)
                    #expect(after.status == 200)
                }
            }
        }
    }

    @Test("A client that does not trust the development CA cannot connect")
    func untrustedCertificateFails() async throws {
        _ = try await withServer { server in
            await #expect(throws: (any Error).self) {
                _ = try await TestClient.with(server, trustCA: false) { client in
                    // A hang bound: what fails is the handshake, long before it on any machine.
                    try await client.send(.GET, path: "/healthz", timeout: .seconds(60))
                }
            }
        }
    }

    @Test("TLS 1.1 and older are refused")
    func oldTLSRefused() async throws {
        try await withServer { server in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(server.caPath)
            tls.maximumTLSVersion = .tlsv11
            try await withHTTPClient(.init(tlsConfiguration: tls)) { client in
                await #expect(throws: (any Error).self) {
                    _ = try await client.execute(
                        HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(60))
                }
            }
        }
    }

    @Test("A certificate chain and key from PEM files (--tls-cert, --tls-key) serve TLS")
    func certificateFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pem-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let issued = try DevelopmentCertificates.ensure(in: directory)
        try await withServer({
            $0.transport = .certificateFiles(chain: issued.certificatePath, privateKey: issued.privateKeyPath)
        }) { server in
            #expect(server.app.certificates == nil)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(issued.caPath)
            try await withHTTPClient(.init(tlsConfiguration: tls)) { client in
                let response = try await client.execute(
                    HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(60))
                #expect(response.status.code == 200)
            }
        }
    }

    @Test("The development CA is created once and reused on the next start")
    func certificatesReused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-tls-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DevelopmentCertificates.ensure(in: directory)
        let ca = try String(contentsOfFile: first.caPath, encoding: .utf8)
        let second = try DevelopmentCertificates.ensure(in: directory)
        #expect(first.created)
        #expect(!second.created)
        #expect(try String(contentsOfFile: second.caPath, encoding: .utf8) == ca)
        let keyMode = try FileManager.default.attributesOfItem(atPath: first.privateKeyPath)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        // Mozilla's intermediate profile (which sslyze checks): a leaf certificate lives at most 366 days.
        let pem = try String(contentsOfFile: first.certificatePath, encoding: .utf8)
        let end = try #require(pem.range(of: "-----END CERTIFICATE-----"))
        let leaf = try Certificate(pemEncoded: String(pem[..<end.upperBound]))
        #expect(leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 366 * 86400)
    }
}
