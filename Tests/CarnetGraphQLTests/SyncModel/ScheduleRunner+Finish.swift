import CarnetGraphQL

extension ScheduleRunner {
    /// Ends the schedule: a last commit every subscriber hears of, every client catches up, and each must hold
    /// exactly what the server holds.
    mutating func finish() async throws {
        var fences: [String] = []
        var servers: [[Bool: ReplicaState]] = []
        for book in 0..<world.booksCount {
            let fence = try await world.run(
                SyncDocuments.save,
                [
                    "request": ["transactionAuthor": "fence", "operations": [["addContact": ["givenName": "Fence"]]]],
                    "book": world.bookVariable(book),
                ])
            guard let fenceId = fence["data"]?["save"]?["contacts"]?[0]?["id"]?.stringValue else {
                throw ModelFailure("fence: \(fence.json)")
            }
            fences.append(fenceId)
        }
        for index in pullers.indices { try await sync(index) }
        for book in 0..<world.booksCount {
            servers.append([
                true: try await world.state(book: book, unify: true),
                false: try await world.state(book: book, unify: false),
            ])
        }
        var problems: [String] = []
        for client in pullers {
            let server = servers[client.book][client.unify]!
            let expected = client.groupChanges ? server : server.contactsOnly
            if client.state != expected {
                problems.append(
                    "\(client.name) (book \(client.book), author \(client.author), excludes own \(client.excludeOwn), unified \(client.unify), groups \(client.groupChanges), pages of \(client.pageSize)) holds \(client.state)\n"
                        + client.state.differences(from: expected)
                )
            }
        }
        for subscriber in subscribers {
            subscriber.gate.openFully()
            let progress = await waitForFence(subscriber, fences[subscriber.book])
            let server = servers[subscriber.book][subscriber.unify]!
            let expected = subscriber.groupChanges ? server : server.contactsOnly
            if progress.state != expected || !progress.errors.isEmpty {
                problems.append(
                    "\(subscriber.name) (book \(subscriber.book), author \(subscriber.author), excludes own \(subscriber.excludeOwn), unified \(subscriber.unify), groups \(subscriber.groupChanges), \(progress.payloads) payloads, errors \(progress.errors)) holds \(progress.state)\n"
                        + progress.state.differences(from: expected)
                )
            }
        }
        guard problems.isEmpty else {
            throw ModelFailure("server holds \(servers)\n" + problems.joined(separator: "\n"))
        }
    }

    /// The subscriber's progress once it applied the fence, or as it stands when its stream ended without it.
    private func waitForFence(_ subscriber: SubscriberClient, _ fenceId: String) async -> SubscriberClient.Progress {
        // The reader runs on its own task; the fence reaches it after every earlier commit. The bound only turns a
        // lost event into a failure instead of a hang.
        for _ in 0..<20_000 {
            let progress = subscriber.progress.withLock { $0 }
            if progress.state.contacts[fenceId] != nil || progress.ended { return progress }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return subscriber.progress.withLock { $0 }
    }
}
