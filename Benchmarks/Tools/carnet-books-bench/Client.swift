import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// GraphQL over HTTPS (HTTP/1.1, the development CA trusted), with latency samples.
struct Client {
    let http: HTTPClient
    let url: String
    let token: String

    init(url: String, caPath: String, token: String) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caPath)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .http1Only
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.url = url
        self.token = token
    }

    /// Posts one operation; its latency in microseconds. - Throws: on a non-200 status or GraphQL errors.
    func post(_ query: String, _ variables: [String: String]) async throws -> Double {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let body = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
        request.body = .bytes(ByteBuffer(bytes: body))
        let start = ContinuousClock.now
        let response = try await http.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 24)
        let elapsed = ContinuousClock.now - start
        let text = String(buffer: bytes)
        guard response.status == .ok, !text.contains(#""errors""#) else {
            throw BenchError("HTTP \(response.status.code): \(text.prefix(300))")
        }
        return Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
    }

    /// `requests` operations from `concurrency` tasks at once: requests per second and latency percentiles.
    func load(requests: Int, concurrency: Int, _ next: @escaping @Sendable (Int) -> (String, [String: String]))
        async throws -> Run
    {
        let start = ContinuousClock.now
        let samples = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var samples: [Double] = []
                    for index in stride(from: worker, to: requests, by: concurrency) {
                        let (query, variables) = next(index)
                        samples.append(try await post(query, variables))
                    }
                    return samples
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        let seconds =
            Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        return Run(samples: samples.sorted(), seconds: seconds)
    }

    func shutdown() async throws { try await http.shutdown() }
}

struct Run {
    var samples: [Double]
    var seconds: Double
    var perSecond: Double { Double(samples.count) / seconds }
    func percentile(_ p: Double) -> Double {
        samples.isEmpty ? 0 : samples[min(samples.count - 1, Int(Double(samples.count) * p))]
    }
    var summary: String {
        String(format: "%.0f req/s, p50 %.0f µs, p99 %.0f µs", perSecond, percentile(0.5), percentile(0.99))
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
