import GGTrackerCore

/// The catalog clients hold keys: they print their endpoint only.
extension IGDBClient: Redacting {
    package var description: String { "IGDBClient(\(apiBase), client id \(clientID))" }
}

extension GiantBombClient: Redacting {
    package var description: String { "GiantBombClient(\(apiBase))" }
}
