import Crypto
import Foundation
import SwiftASN1
import X509

/// A development CA and a server certificate for `localhost` and `127.0.0.1`, created on first start and reused
/// afterwards, so `curl --cacert <folder>/ca.pem` and other clients can verify the server without turning
/// verification off.
public struct DevelopmentCertificates: Sendable {
    /// The CA certificate's file name in the certificate folder.
    public static let caFileName = "ca.pem"
    /// The CA certificate to give clients.
    public let caPath: String
    public let certificatePath: String
    public let privateKeyPath: String
    /// Whether this call created them (the first start).
    public let created: Bool

    /// The files in `directory`: `ca.pem`, `ca-key.pem`, `server.pem` (the server certificate then the CA) and
    /// `server-key.pem`. Missing ones, or a server certificate within 30 days of expiry, are made anew.
    public static func ensure(
        in directory: String, hostnames: [String] = ["localhost"],
        addresses: [[UInt8]] = [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]]
    ) throws -> DevelopmentCertificates {
        let fm = FileManager.default
        try fm.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        // Two servers starting at once on a new folder each made a CA: one then served a certificate that ca.pem
        // did not sign, or read the other's key half written. The lock makes the second find the first's files.
        let lock = try FolderLock(path: path(".lock"))
        defer { lock.release() }
        let (caPath, caKeyPath, certPath, keyPath) = (
            path(caFileName), path("ca-key.pem"), path("server.pem"),
            path("server-key.pem")
        )

        let caKey: P256.Signing.PrivateKey
        let ca: Certificate
        var created = false
        if fm.fileExists(atPath: caPath), fm.fileExists(atPath: caKeyPath) {
            caKey = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: caKeyPath, encoding: .utf8))
            ca = try Certificate(pemEncoded: String(contentsOfFile: caPath, encoding: .utf8))
        } else {
            caKey = P256.Signing.PrivateKey()
            ca = try makeCA(key: caKey)
            try write(caKey.pemRepresentation, to: caKeyPath, mode: 0o600)
            try write(ca.serializeAsPEM().pemString, to: caPath, mode: 0o644)
            try? fm.removeItem(atPath: certPath)
            created = true
        }
        if try !serverCertificateIsUsable(at: certPath, keyPath: keyPath) {
            let key = P256.Signing.PrivateKey()
            let leaf = try makeServerCertificate(
                key: key, ca: ca, caKey: caKey, hostnames: hostnames,
                addresses: addresses)
            try write(key.pemRepresentation, to: keyPath, mode: 0o600)
            try write(
                leaf.serializeAsPEM().pemString + "\n" + ca.serializeAsPEM().pemString, to: certPath,
                mode: 0o644)
            created = true
        }
        return DevelopmentCertificates(
            caPath: caPath, certificatePath: certPath, privateKeyPath: keyPath,
            created: created)
    }

    private static func makeCA(key: P256.Signing.PrivateKey) throws -> Certificate {
        let name = try DistinguishedName {
            OrganizationName("Carnet")
            CommonName("Carnet Development CA \(Int(Date().timeIntervalSince1970))")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: Date().addingTimeInterval(-3600),
            notValidAfter: Date().addingTimeInterval(10 * 365 * 86400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    private static func makeServerCertificate(
        key: P256.Signing.PrivateKey, ca: Certificate, caKey: P256.Signing.PrivateKey, hostnames: [String],
        addresses: [[UInt8]]
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let caIdentifier = try ca.extensions.subjectKeyIdentifier?.keyIdentifier
        let names =
            hostnames.map { GeneralName.dnsName($0) }
            + addresses.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...])) }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            // 365 days and the hour before now: within the 366 days of Mozilla's intermediate TLS profile.
            notValidBefore: Date().addingTimeInterval(-3600), notValidAfter: Date().addingTimeInterval(365 * 86400),
            issuer: ca.subject,
            subject: try DistinguishedName {
                OrganizationName("Carnet")
                CommonName("localhost")
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caIdentifier)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
    }

    private static func serverCertificateIsUsable(at path: String, keyPath: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: keyPath),
            let text = try? String(contentsOfFile: path, encoding: .utf8),
            let end = text.range(of: "-----END CERTIFICATE-----"),
            let leaf = try? Certificate(pemEncoded: String(text[..<end.upperBound]))
        else { return false }
        // A leaf made by an earlier version for 397 days is made anew within the profile's 366.
        return leaf.notValidAfter > Date().addingTimeInterval(30 * 86400)
            && leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 366 * 86400
    }

    private static func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}
