import CarnetStore
import Prometheus
import Synchronization

/// The service's Prometheus metrics, in a registry of its own (no global bootstrap, so tests can build many
/// applications in one process).
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let operationNames = Mutex<Set<String>>([])
    /// Counter and histogram handles by series name, status and label values.
    private let series = Mutex<[SeriesKey: (Counter, DurationHistogram)]>([:])
    static let maxOperationNames = 200
    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]
    let subscriptionsOpen: Gauge
    /// From a commit's notice to its subscription payload written to the socket, finer where the 10 ms goal is.
    let subscriptionDelivery: DurationHistogram
    static let deliveryBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(3),
        .milliseconds(4), .milliseconds(5), .milliseconds(7.5), .milliseconds(10), .milliseconds(15),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]
    let webSocketsOpen: Gauge
    private let contacts: Gauge
    private let groups: Gauge
    private let databaseBytes: Gauge

    /// A metric's whole name (units are already in it) and help text.
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    init() {
        subscriptionsOpen = registry.makeGauge(
            descriptor: Self.named("carnet_subscriptions_open", "GraphQL subscriptions running over WebSocket"))
        subscriptionDelivery = registry.makeDurationHistogram(
            descriptor: Self.named(
                "carnet_subscription_delivery_seconds",
                "From a commit (as this process learned of it) to the subscription payload that carries it, written"),
            buckets: Self.deliveryBuckets)
        webSocketsOpen = registry.makeGauge(
            descriptor: Self.named("carnet_websocket_connections_open", "graphql-transport-ws connections open"))
        contacts = registry.makeGauge(descriptor: Self.named("carnet_store_contacts", "Contacts in the store"))
        groups = registry.makeGauge(descriptor: Self.named("carnet_store_groups", "Groups in the store"))
        databaseBytes = registry.makeGauge(
            descriptor: Self.named("carnet_store_database_bytes", "Size of the database file"))
    }

    func recordHTTP(route: String, method: String, status: Int, duration: Duration) {
        record(SeriesKey(name: "carnet_http_request", status: String(status), first: route, second: method), duration) {
            Series(what: "HTTP requests", by: "route and method", labels: [("route", route), ("method", method)])
        }
    }

    /// One GraphQL operation, over HTTP or WebSocket. `status` is the HTTP status, or `ok`/`error` on sockets.
    func recordOperation(name: String?, kind: String, status: String, duration: Duration) {
        let operation = operationLabel(name)
        record(SeriesKey(name: "carnet_graphql_operation", status: status, first: operation, second: kind), duration) {
            Series(
                what: "GraphQL operations", by: "operation name and kind",
                labels: [("operation", operation), ("kind", kind)])
        }
    }

    /// A counter (`<name>s_total`, with the status) and a latency histogram (`<name>_duration_seconds`).
    private struct Series {
        var what: String
        var by: String
        var labels: [(String, String)]
    }

    /// The series' name, status and two label values: what tells one series from another, without the
    /// allocations of label arrays on every request.
    private struct SeriesKey: Hashable {
        var name: String
        var status: String
        var first: String
        var second: String
    }

    private func record(_ key: SeriesKey, _ duration: Duration, _ describe: () -> Series) {
        var handles = self.series.withLock { $0[key] }
        if handles == nil {
            // The registry builds and looks up a key from the labels on every call: keep the handles.
            let series = describe()
            handles = (
                registry.makeCounter(
                    descriptor: Self.named(key.name + "s_total", "\(series.what) by \(series.by) and status"),
                    labels: series.labels + [("status", key.status)]),
                registry.makeDurationHistogram(
                    descriptor: Self.named(key.name + "_duration_seconds", "\(series.what) latency by \(series.by)"),
                    labels: series.labels, buckets: Self.buckets)
            )
            self.series.withLock { $0[key] = handles }
        }
        handles?.0.increment()
        handles?.1.recordNanoseconds(duration.nanoseconds)
    }

    /// The text exposition, with the store's sizes read now.
    func render(store: any ContactStore) async -> [UInt8] {
        if let statistics = try? await store.statistics() {
            contacts.set(Int64(statistics.contacts))
            groups.set(Int64(statistics.groups))
            databaseBytes.set(Int64(statistics.databaseBytes))
        }
        return registry.emitToBuffer()
    }

    /// Operation names are client-chosen: the first ``maxOperationNames`` distinct ones get their own series, the
    /// rest share `other`, so a client cannot grow the metrics without bound.
    private func operationLabel(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "anonymous" }
        return operationNames.withLock { names in
            if names.contains(name) { return name }
            guard names.count < Self.maxOperationNames else { return "other" }
            names.insert(name)
            return name
        }
    }

    static func routeLabel(_ path: String) -> String {
        switch path {
        case "/graphql", "/healthz", "/readyz", "/metrics": path
        default: "other"
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
