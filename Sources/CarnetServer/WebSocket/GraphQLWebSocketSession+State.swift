import CarnetGraphQL

extension GraphQLWebSocketSession {
    /// The caller: a token in `connection_init`'s payload (`authorization: "Bearer …"` or `token`), else the
    /// upgrade request's `Authorization` header; `nil` for a token that is not valid. Throws when the check itself
    /// failed (the store was unavailable), which says nothing about the token.
    func authenticate(_ payload: [String: JSONValue]) async throws -> AccessIdentity? {
        let offered: String? =
            switch (payload["authorization"] ?? payload["Authorization"], payload["token"]) {
            case (.string(let header)?, _): bearerToken(header) ?? header
            case (_, .string(let token)?): token
            default: nil
            }
        guard let offered else { return upgradeIdentity }
        do {
            return try await dependencies.tokens.verify(offered)
        } catch {
            logger.error("Token check failed", metadata: ["error.type": "\(type(of: error))"])
            throw error
        }
    }
}
