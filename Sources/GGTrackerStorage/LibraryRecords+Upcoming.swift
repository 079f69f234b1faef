import Foundation
import GGTrackerCore

extension LibraryRecords {
    /// The wishlisted games of a server's members whose release is ahead, soonest first, with who wants each: one
    /// query, rows grouped by game in Swift. A game known only by its year (stored as the year's first moment)
    /// counts as ahead until that year is over.
    package func upcoming(
        in community: String, of player: PlayerID?, after now: Date, includeMature: Bool, limit: Int
    ) async throws -> [UpcomingGame] {
        let yearStart = Self.yearStart(of: now)
        var conditions = [
            "m.community_id = ?",
            "(g.release_date > ? OR (g.release_year_only <> 0 AND g.release_date >= ?))",
        ]
        var arguments: [(any SQLBindable)?] = [community, now.timeIntervalSince1970, yearStart.timeIntervalSince1970]
        if let player {
            conditions.append("w.player_id = ?")
            arguments.append(player.rawValue)
        }
        if !includeMature { conditions.append("g.mature = 0") }
        let rows = try await read { db in
            try await db.fetchAll(
                """
                SELECT p.*, \(GameRows.columns) FROM wishlist w
                JOIN memberships m ON m.player_id = w.player_id
                JOIN players p ON p.id = w.player_id
                JOIN games g ON g.id = w.game_id
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY g.release_date, g.name, g.id, w.added_at
                """, SQLArguments(arguments))
        }
        var games: [UpcomingGame] = []
        for row in rows {
            let game = GameRows.game(from: row)
            let wisher = LibraryRows.player(from: row)
            if games.last?.game.id == game.id {
                games[games.count - 1].wantedBy.append(wisher)
            } else {
                guard games.count < limit else { break }
                games.append(UpcomingGame(game: game, wantedBy: [wisher]))
            }
        }
        return games
    }

    /// Whether any game of the catalog comes out after `now` (a year-only date counts until its year is over):
    /// whether anything can be wishlisted ahead of its release.
    package func hasUnreleased(after now: Date) async throws -> Bool {
        let yearStart = Self.yearStart(of: now)
        return try await read { db in
            try await db.value(
                "SELECT 1 FROM games WHERE release_date > ? OR (release_year_only <> 0 AND release_date >= ?) LIMIT 1",
                [now.timeIntervalSince1970, yearStart.timeIntervalSince1970]) as Int? != nil
        }
    }

    /// The first moment of `now`'s year: a game known only by its year is stored as that moment.
    private static func yearStart(of now: Date) -> Date {
        Calendar.utc.date(from: DateComponents(year: Calendar.utc.component(.year, from: now), month: 1, day: 1))!
    }
}
