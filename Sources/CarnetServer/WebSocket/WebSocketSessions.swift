import Synchronization

/// The open graphql-transport-ws sessions, so a graceful shutdown can drain them.
final class WebSocketSessions: Sendable {
    private let sessions = Mutex<(open: [ObjectIdentifier: GraphQLWebSocketSession], draining: Bool)>(([:], false))

    /// Registers a session. - Returns: `false` when shutting down (the caller closes it with 1001).
    func add(_ session: GraphQLWebSocketSession) -> Bool {
        sessions.withLock { state in
            guard !state.draining else { return false }
            state.open[ObjectIdentifier(session)] = session
            return true
        }
    }

    func remove(_ session: GraphQLWebSocketSession) {
        _ = sessions.withLock { $0.open.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// Drains every session at once and returns when all have closed.
    func drainAll(grace: Duration) async {
        let open = sessions.withLock { state in
            state.draining = true
            return Array(state.open.values)
        }
        await withTaskGroup(of: Void.self) { group in
            for session in open { group.addTask { await session.drain(grace: grace) } }
        }
    }
}
