import GGTrackerCore

extension LibraryRecords {
    /// A page of a player's library, with its counts by status.
    package func library(
        of player: PlayerID, status: GameStatus?, sort: LibrarySort, includeMature: Bool, page: Int, pageSize: Int
    ) async throws -> LibraryPage {
        var conditions = ["e.player_id = ?"]
        var arguments: [(any SQLBindable)?] = [player.rawValue]
        if let status {
            conditions.append("e.status = ?")
            arguments.append(status.rawValue)
        }
        if !includeMature { conditions.append("g.mature = 0") }
        let order =
            switch sort {
            case .recent: "e.updated_at DESC, g.name"
            case .score: "e.score IS NULL, e.score DESC, g.name"
            case .hours: "e.hours IS NULL, e.hours DESC, g.name"
            case .name: "lower(g.name), g.name, g.release_date"
            }
        let countsByGroup = """
            SELECT e.status || ' ' || g.mature || ' ' || count(*) AS c FROM library_entries e
            JOIN games g ON g.id = e.game_id WHERE e.player_id = ? GROUP BY e.status, g.mature
            """
        // On PostgreSQL the page carries the library's counts by status in a column of its own (each statement is
        // an exchange with the server); a page with nothing on it has no row to carry them, and they are read on
        // their own, as they always are on SQLite, where a statement costs no exchange and the column a little.
        let (rows, groups) = try await read { db -> ([SQLRow], [String]) in
            let carried = db.dialect == .postgres
            let counted =
                carried ? ", (SELECT string_agg(c, ',') FROM (\(countsByGroup)) AS status_groups) AS status_counts" : ""
            let rows = try await db.fetchAll(
                """
                SELECT \(Self.listedColumns) \(counted)
                FROM library_entries e JOIN games g ON g.id = e.game_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ? OFFSET ?
                """,
                SQLArguments((carried ? [player.rawValue] : []) + arguments + [pageSize, (page - 1) * pageSize]))
            if carried, let first = rows.first {
                // After the listed columns, read from the first row.
                let joined: String? = first["status_counts"]
                return (rows, joined.map { $0.split(separator: ",").map(String.init) } ?? [])
            }
            return (rows, try await db.fetchAll(countsByGroup, [player.rawValue]).map { $0[0] })
        }
        var counts: [GameStatus: Int] = [:]
        var hidden = 0
        for group in groups {
            // "status mature count"
            let parts = group.split(separator: " ")
            guard parts.count == 3, let n = Int(parts[2]) else { continue }
            let rawStatus = String(parts[0])
            if parts[1] != "0" && !includeMature {
                if status == nil || status?.rawValue == rawStatus { hidden += n }
                continue
            }
            if let s = GameStatus(rawValue: rawStatus) { counts[s, default: 0] += n }
        }
        let total = status.map { counts[$0] ?? 0 } ?? counts.values.reduce(0, +)
        return LibraryPage(
            page: Page(
                items: rows.map(Self.listedEntry(from:)), page: page, pageCount: Self.pageCount(total, pageSize),
                total: total),
            statusCounts: counts, hiddenMature: hidden)
    }
}
