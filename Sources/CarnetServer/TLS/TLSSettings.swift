import NIOSSL

/// The listener's TLS policy: TLS 1.2 and later, forward-secret AEAD suites only (Mozilla's "intermediate").
enum TLSSettings {
    static let cipherSuites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    static func server(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey, alpn: [String]) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.cipherSuites = cipherSuites
        configuration.applicationProtocols = alpn
        // A close sends close_notify and waits this long for the client's: most idle clients read nothing, so
        // NIO's 5 s held each idle keep-alive connection (and a shutdown behind it) for 5 s.
        configuration.shutdownTimeout = .seconds(1)
        return configuration
    }
}
