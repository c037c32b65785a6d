import CarnetServer
import Foundation
import HummingbirdWSClient
import Logging
import NIOSSL
import Testing

/// The log holds no token, variables or contact data at any level (an outside tester's finds: at trace, WebSocket
/// frames were logged with their first bytes, which a client that fragments its messages chooses; at debug, the
/// service lifecycle printed the whole configuration, a database URL's password included).
@Suite("Trace logs")
struct TraceLogTests {
    @Test("At trace, a client that fragments its WebSocket messages leaves no token or contact data in the log")
    func fragmentedWebSocketMessages() async throws {
        let logs = LogRecorder(level: .trace)
        let name = "Quaxleyzeb"
        var token = ""
        try await withServer(logs: logs) { server in
            token = try await server.token()
            try await TestClient.with(server) { client in
                let added = try await client.graphql(
                    #"mutation { save(request: {operations: [{addContact: {givenName: "\#(name)"}}]}) { revision } }"#,
                    token: token)
                #expect(added.status == 200)
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(server.caPath)
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.secWebSocketProtocol: "graphql-transport-ws"]
            let opening = #"{"type":"connection_init","payload":{"authorization":"Bearer \#(token)"}}"#
            let subscribe =
                #"{"type":"subscribe","id":"q","payload":{"query":"query($n: String) { contacts(filter: {name: $n}) "#
                + #"{ nodes { givenName } } }","variables":{"n":"\#(name)"}}}"#
            let (seen, sink) = AsyncStream<String>.makeStream()
            _ = try await WebSocketClient.connect(
                url: "wss://localhost:\(server.port)/graphql", configuration: configuration, tlsConfiguration: tls,
                logger: Logger(label: "ws-test")
            ) { inbound, outbound, _ in
                // Every message in pieces of 6 bytes, so that some frame starts with any part of it.
                for message in [opening, subscribe] {
                    try await outbound.withTextMessageWriter { write in
                        var rest = Substring(message)
                        while !rest.isEmpty {
                            try await write(String(rest.prefix(6)))
                            rest = rest.dropFirst(6)
                        }
                    }
                }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message else { continue }
                    sink.yield(text)
                    if text.contains(#""type":"complete""#) || text.contains(#""type":"error""#) { break }
                }
                sink.finish()
            }
            var texts: [String] = []
            for await text in seen { texts.append(text) }
            #expect(texts.contains { $0.contains(name) }, "\(texts)")
        }
        let logged = logs.logged(atLeast: .trace).map(\.description)
        // The recorder saw the server's lower levels: the check below could fail.
        #expect(logged.contains { $0.hasPrefix("[debug]") }, "\(logged.prefix(5))")
        let text = logged.joined(separator: "\n")
        for secret in [token, name] {
            #expect(!text.contains(secret))
            // As the frame logger wrote bytes: lower-case hex, a space between.
            let hex = secret.utf8.prefix(5).map { String(format: "%02x", $0) }.joined(separator: " ")
            #expect(!text.contains(hex), "\(hex)")
        }
        // The service lifecycle names its services, not their contents (the configuration).
        #expect(!text.contains("dataDirectory"))
    }

    @Test("A configuration's description keeps its database password out")
    func configurationDescription() {
        var configuration = ServerConfiguration()
        configuration.databaseURL = "postgres://carnet:TopSecretPw123@db.example:5432/carnet?sslmode=require"
        for described in ["\(configuration)", String(reflecting: configuration), "\(Optional(configuration) as Any)"] {
            #expect(!described.contains("TopSecretPw123"), "\(described)")
            #expect(described.contains("db.example"), "\(described)")
        }
    }
}
