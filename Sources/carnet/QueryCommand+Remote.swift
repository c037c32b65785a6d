import ArgumentParser
import AsyncHTTPClient
import CarnetGraphQL
import Foundation
import NIOCore
import NIOSSL

extension Carnet.QueryCommand {
    /// POSTs the request to a server, verifying its certificate.
    func remote(_ body: GraphQLRequestBody, url: String) async throws -> ([UInt8], Bool) {
        var tls = TLSConfiguration.makeClientConfiguration()
        let defaultCA = options.layout.developmentCAPath
        if let path = caFile ?? (FileManager.default.fileExists(atPath: defaultCA) ? defaultCA : nil) {
            // Read here, so that a missing or unreadable file is named with its flag: the client's own errors said
            // `noSuchFilesystemObject` or quoted BoringSSL (an outside tester's find).
            let roots = (try? NIOSSLCertificate.fromPEMFile(path)) ?? []
            guard !roots.isEmpty else {
                let reason = FileManager.default.fileExists(atPath: path) ? "no PEM certificate in it" : "no such file"
                throw ValidationError("--cacert (or CARNET_CA): cannot read \(path) (\(reason)).")
            }
            tls.trustRoots = .certificates(roots)
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(120))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/graphql-response+json, application/json;q=0.9")
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken ?? "")")
        var json: [String: JSONValue] = ["query": body.query.map(JSONValue.string) ?? .null]
        if let name = body.operationName { json["operationName"] = .string(name) }
        if !body.variables.isEmpty { json["variables"] = .object(body.variables) }
        var writer = JSONWriter()
        writer.value(.object(json))
        request.body = .bytes(ByteBuffer(bytes: writer.bytes))

        let bytes: [UInt8]
        let status: UInt
        do {
            let response = try await client.execute(request, timeout: .seconds(120))
            bytes = Array(buffer: try await response.body.collect(upTo: 256 << 20))
            status = response.status.code
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
        let failed =
            status >= 300
            || (try? JSONParser.parse(bytes)).map { if case .object(let o) = $0 { o["errors"] != nil } else { true } }
                ?? true
        return (bytes, failed)
    }
}
