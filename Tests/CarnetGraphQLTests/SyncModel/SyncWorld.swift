import CarnetGraphQL
import CarnetStore
import Foundation

/// The server side of a schedule: a store (on disk when the schedule restarts it) and the GraphQL service.
final class SyncWorld {
    let directory: URL?
    var store: CarnetStore
    var service: GraphQLService

    init(onDisk: Bool) throws {
        if onDisk {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "carnet-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            store = try CarnetStore.open(path: directory.appendingPathComponent("carnet.sqlite").path)
        } else {
            directory = nil
            store = try CarnetStore.inMemory()
        }
        service = GraphQLService(store: store, limits: .unhurried)
    }

    /// Closes the store (ending every subscription) and opens it again, as a server restart does.
    func restart() async throws {
        guard let directory else { return }
        try await store.close()
        store = try CarnetStore.open(path: directory.appendingPathComponent("carnet.sqlite").path)
        service = GraphQLService(store: store, limits: .unhurried)
    }

    func close() async {
        try? await store.close()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs a document; `errors` come back in the result.
    func run(_ query: String, _ variables: [String: JSONValue] = [:]) async throws -> JSONValue {
        let response = await service.execute(GraphQLRequestBody(query: query, variables: variables))
        return try JSONParser.parse(response.body)
    }

    /// What the server holds.
    func state() async throws -> ReplicaState {
        var state = ReplicaState()
        var after: JSONValue = .null
        while true {
            let result = try await run(SyncDocuments.state, ["after": after])
            guard let data = result["data"], result["errors"] == nil else {
                throw ModelFailure("state: \(result.json)")
            }
            for node in data["contacts"]?["nodes"]?.arrayValue ?? [] {
                if let id = node["id"]?.stringValue { state.contacts[id] = node }
            }
            for group in data["groups"]?.arrayValue ?? [] {
                guard let id = group["id"]?.stringValue else { continue }
                state.groups[id] = group["name"]?.stringValue
                for member in group["members"]?.arrayValue ?? [] {
                    if let contact = member["id"]?.stringValue { state.members.insert([id, contact]) }
                }
            }
            guard data["contacts"]?["pageInfo"]?["hasNextPage"] == .bool(true),
                let cursor = data["contacts"]?["pageInfo"]?["endCursor"]
            else { break }
            after = cursor
        }
        return state
    }
}
