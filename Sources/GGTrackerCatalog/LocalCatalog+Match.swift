import Foundation
import GGTrackerCore
import GGTrackerStorage

extension LocalCatalog {
    package func match(_ items: [ImportItem], suggesting: Int) async throws -> [ImportMatch] {
        try await ImportMatcher(database: database, index: index).match(items, suggesting: suggesting)
    }
}

/// Imported items matched to the local catalog: by Steam app id, catalog reference, then name and year.
struct ImportMatcher {
    let database: AppDatabase
    let index: SearchIndex

    /// The catalog's game for each item, in order; the first `suggesting` items without one get the closest names.
    func match(_ items: [ImportItem], suggesting: Int) async throws -> [ImportMatch] {
        var found = [Game?](repeating: nil, count: items.count)
        let bySteam = try await database.steamApps.games(items.compactMap(\.steamAppID))
        let byRef = try await database.catalog.games(items.compactMap(\.ref))
        var named: [Int: [Int64]] = [:]
        for (i, item) in items.enumerated() {
            if let id = item.steamAppID, let game = bySteam[id] {
                found[i] = game
            } else if let ref = item.ref, let game = byRef[ref] {
                found[i] = game
            } else {
                named[i] = await index.exactlyNamed(item.name)
            }
        }
        let candidates = try await database.catalog.games(Array(Set(named.values.joined())))
        for (i, ids) in named {
            found[i] = Self.pick(ids.compactMap { candidates[$0] }, year: items[i].year)
        }
        var suggested = 0
        var matches: [ImportMatch] = []
        for (i, game) in found.enumerated() {
            if let game {
                matches.append(.game(game))
            } else if suggested < suggesting {
                suggested += 1
                let hits = try await index.search(items[i].name, filter: CatalogFilter(), limit: 2)
                matches.append(.none(suggestions: hits.map(\.game)))
            } else {
                matches.append(.none(suggestions: []))
            }
        }
        return matches
    }

    /// Among games of the same name (most popular first): the one of that year (or the next or last), or with
    /// no year known, the most popular main game.
    static func pick(_ games: [Game], year wanted: Int?) -> Game? {
        func released(_ game: Game) -> Int? { game.releaseDate.map { Calendar.utcYear(of: $0) } }
        guard let year = wanted else {
            return games.first { $0.gameType == nil || $0.gameType == "Main Game" } ?? games.first
        }
        return games.first { released($0) == year }
            ?? games.first { released($0).map { abs($0 - year) <= 1 } ?? false }
    }
}
