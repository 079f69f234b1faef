import Foundation
import GGTrackerCore
import GGTrackerStorage

/// A remote catalog the local one asks when it knows too little (IGDB, Giant Bomb).
package protocol CatalogProvider: Sendable {
    /// The name shown to users and kept with each lookup.
    var name: String { get }
    /// Games matching free text, in the catalog's record shape.
    func search(_ query: String, limit: Int) async throws -> [CatalogRecord]
    /// One game by its reference, when the reference is this provider's (`igdb:1942`, `gb:3030-20545`).
    func game(_ ref: GameRef) async throws -> CatalogRecord?
    /// Whether a stored game came from a search that leaves out fields only the game's own page has, so its card
    /// should fetch them once.
    func lacksDetails(_ game: Game) -> Bool
}

extension CatalogProvider {
    package func lacksDetails(_ game: Game) -> Bool { false }
}

extension IGDBClient: CatalogProvider {
    package var name: String { "igdb" }

    /// IGDB's full-text `search`, with the same expanded fields as a refresh.
    package func search(_ query: String, limit: Int) async throws -> [CatalogRecord] {
        let escaped = query.replacingOccurrences(of: "\\", with: " ").replacingOccurrences(of: "\"", with: " ")
        let rows = await withTimesToBeat(
            try await self.query(
                "games", "search \"\(escaped)\"; fields \(Self.gameFields); limit \(min(max(limit, 1), 50));"))
        return rows.compactMap { try? IGDBGameMapping.record(from: $0) }
    }

    package func game(_ ref: GameRef) async throws -> CatalogRecord? {
        guard ref.provider == "igdb", let id = Int(ref.id) else { return nil }
        let rows = await withTimesToBeat(
            try await query("games", "fields \(Self.gameFields); where id = \(id); limit 1;"))
        return rows.first.flatMap { try? IGDBGameMapping.record(from: $0) }
    }
}
