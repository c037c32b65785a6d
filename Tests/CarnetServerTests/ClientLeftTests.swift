import CarnetServer
import Foundation
import Testing

/// A request whose client has gone stops at its next check (499). Hummingbird keeps a connection whose client closed
/// its side open, so an import whose HTTP/1.1 client closed its socket ran to its end, every batch committed, and
/// held a shutdown as long (an outside tester's find).
@Suite("Requests whose client left")
struct ClientLeftTests {
    @Test("An import whose HTTP/1.1 client closes its socket stops at its next batch")
    func importStops() async throws {
        let total = 20_000
        try await withServer({ $0.maxBodyBytes = 16 << 20 }) { server in
            let token = try await server.token()
            let cards = (0..<total).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\($0);I;;;\r\nEND:VCARD\r\n" }.joined()
            let body = try JSONSerialization.data(withJSONObject: [
                "query": #"mutation($d: String!) { importVCards(data: $d) { added } }"#, "variables": ["d": cards],
            ])
            let head =
                "POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let store = server.store
            // The client leaves once the import has saved its first batch.
            try await connection.send(head + String(decoding: body, as: UTF8.self)) {
                while try await store.contactCount() == 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            // The import stops: its count settles, short of the file.
            var count = 0
            var settled = -1
            while count != settled {
                settled = count
                try await Task.sleep(for: .seconds(2))
                count = try await store.contactCount()
            }
            #expect(count > 0 && count < total, "\(count) of \(total) cards imported after the client left")
        }
    }
}
