import Foundation
import GGTrackerStorage

/// A remote catalog the local one asks when it knows too little (IGDB, Giant Bomb).
package protocol CatalogProvider: Sendable {
    /// The name shown to users and kept with each lookup.
    var name: String { get }
    /// Games matching free text, in the catalog's record shape.
    func search(_ query: String, limit: Int) async throws -> [CatalogRecord]
}

extension IGDBClient: CatalogProvider {
    package var name: String { "igdb" }

    /// IGDB's full-text `search`, with the same expanded fields as a refresh.
    package func search(_ query: String, limit: Int) async throws -> [CatalogRecord] {
        let escaped = query.replacingOccurrences(of: "\\", with: " ").replacingOccurrences(of: "\"", with: " ")
        let rows = try await self.query(
            "games", "search \"\(escaped)\"; fields \(Self.gameFields); limit \(min(max(limit, 1), 50));")
        return rows.compactMap { try? IGDBGameMapping.record(from: $0) }
    }
}
