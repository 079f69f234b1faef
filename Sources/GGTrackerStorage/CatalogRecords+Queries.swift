import Foundation
import GGTrackerCore

extension CatalogRecords {
    /// Best-rated games with at least `minimumRatings` critic ratings, that pass the filter.
    package func top(filter: CatalogFilter, minimumRatings: Int, page: Int, pageSize: Int) async throws -> Page<Game> {
        var conditions = ["g.critic_rating IS NOT NULL", "g.rating_count >= ?"]
        var arguments: [(any SQLBindable)?] = [minimumRatings]
        Self.append(filter, to: &conditions, &arguments, dialect: dialect)
        return try await pageOfGames(
            from: "games g WHERE \(conditions.joined(separator: " AND "))",
            order: "g.critic_rating DESC, g.rating_count DESC, g.name", arguments: arguments, page: page,
            pageSize: pageSize)
    }

    /// Games filed under a genre, platform, mode or engine, most popular first.
    package func browse(
        _ kind: FacetKind, name: String, includeMature: Bool, page: Int, pageSize: Int
    ) async throws -> Page<Game> {
        try await pageOfGames(
            from: """
                facets f JOIN game_facets gf ON gf.facet_id = f.id JOIN games g ON g.id = gf.game_id
                WHERE f.kind = ? AND \(dialect.equalsIgnoringCase("f.name"))\(includeMature ? "" : " AND g.mature = 0")
                """,
            order: "g.popularity DESC, g.critic_rating DESC, g.name", arguments: [kind.rawValue, name], page: page,
            pageSize: pageSize)
    }

    func pageOfGames(
        from: String, order: String, arguments: [(any SQLBindable)?], page: Int, pageSize: Int
    ) async throws -> Page<Game> {
        try await read { db in
            let total = try await (db.value("SELECT count(*) FROM \(from)", SQLArguments(arguments)) as Int?) ?? 0
            let rows = try await db.fetchAll(
                "SELECT \(GameRows.columns) FROM \(from) ORDER BY \(order) LIMIT ? OFFSET ?",
                SQLArguments(arguments + [pageSize, (page - 1) * pageSize]))
            return Page(
                items: rows.map(GameRows.game(from:)), page: page, pageCount: max(1, (total + pageSize - 1) / pageSize),
                total: total)
        }
    }

    /// Facet names containing `text`, those starting with it first, then the most used.
    package func facetNames(_ kind: FacetKind, containing text: String, limit: Int) async throws -> [String] {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try await read { db in
            try await db.values(
                """
                SELECT f.name FROM facets f JOIN game_facets gf ON gf.facet_id = f.id
                WHERE f.kind = ? AND f.name \(db.dialect.like) ? ESCAPE '\\'
                GROUP BY f.id ORDER BY f.name \(db.dialect.like) ? ESCAPE '\\' DESC, count(*) DESC, f.name LIMIT ?
                """, [kind.rawValue, "%\(escaped)%", "\(escaped)%", limit])
        }
    }

    /// Every name of one kind that some game has, in alphabetical order.
    package func facetNames(_ kind: FacetKind) async throws -> [String] {
        try await read { db in
            try await db.values(
                """
                SELECT f.name FROM facets f
                WHERE f.kind = ? AND EXISTS (SELECT 1 FROM game_facets gf WHERE gf.facet_id = f.id) ORDER BY f.name
                """, [kind.rawValue])
        }
    }

    /// The most popular games, for an autocomplete with nothing typed yet.
    package func popular(includeMature: Bool, limit: Int) async throws -> [Game] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT \(GameRows.columns) FROM games g \(includeMature ? "" : "WHERE g.mature = 0")
                ORDER BY g.popularity DESC LIMIT ?
                """, [limit]
            ).map(GameRows.game(from:))
        }
    }

    /// Full games by id, in one query.
    /// The games these references name, in one read (its queries sent together); references to no game are
    /// left out.
    package func games(_ refs: [GameRef]) async throws -> [GameRef: Game] {
        try await read { db in
            var pending: [(GameRef, SQLPending)] = []
            for ref in Set(refs) { pending.append((ref, try await Self.prefetchGame(ref, in: db))) }
            var found: [GameRef: Game] = [:]
            for (ref, rows) in pending {
                if let game = try await rows.rows().first.map(GameRows.game(from:)) { found[ref] = game }
            }
            return found
        }
    }

    package func games(_ ids: [Int64]) async throws -> [Int64: Game] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in try await Self.games(ids, in: db) }
    }

    /// Games by id and, in the same transaction, the catalog's generation: a search reads the games it shows and
    /// checks its in-memory index against the catalog in one go. With `suggestionsOnly`, each game carries only
    /// what an autocomplete suggestion shows (`suggestionColumns`).
    package func gamesAndGeneration(
        _ ids: [Int64], suggestionsOnly: Bool = false
    ) async throws -> (games: [Int64: Game], generation: Int) {
        try await read { db in
            let generation = try await db.prefetch(
                "SELECT value FROM catalog_meta WHERE key = ?", [Self.generationKey])
            let games = ids.isEmpty ? [:] : try await Self.games(ids, in: db, suggestionsOnly: suggestionsOnly)
            return (games, (try await generation.value() as String?).flatMap(Int.init) ?? 0)
        }
    }

    static func games(
        _ ids: [Int64], in db: any SQLSession, suggestionsOnly: Bool = false
    ) async throws -> [Int64: Game] {
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let columns = suggestionsOnly ? suggestionColumns : GameRows.columns
        let rows = try await db.fetchAll(
            "SELECT \(columns) FROM games g WHERE g.id IN (\(placeholders))", SQLArguments(ids))
        var games: [Int64: Game] = [:]
        for row in rows {
            let game = suggestionsOnly ? Self.suggestion(from: row) : GameRows.game(from: row)
            games[game.id] = game
        }
        return games
    }

    /// What an autocomplete suggestion shows of a game: its name, release and platforms, and the reference the
    /// option takes. The summary and the other lists of a full game are most of what reading one costs, and an
    /// autocomplete reads 25 games a keystroke.
    static let suggestionColumns = """
        g.id, g.provider, g.provider_id, g.name, g.release_date, g.release_year_only, g.platforms, g.mature
        """

    /// A game read with `suggestionColumns`: everything else is left empty.
    static func suggestion(from row: SQLRow) -> Game {
        let (id, ref) = GameRows.reference(in: row, at: 0)
        return Game(
            id: id, ref: ref, name: row[3], releaseDate: (row[4] as Double?).map(Date.init(timeIntervalSince1970:)),
            releaseYearOnly: row[5], platforms: NameList.decode(row[6]), isMature: row[7])
    }

    /// Which of these games pass the filter.
    package func matching(_ filter: CatalogFilter, among ids: [Int64]) async throws -> Set<Int64> {
        try await read { db in
            var conditions = [db.dialect.inJSONArray("g.id")]
            var arguments: [(any SQLBindable)?] = ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            Self.append(filter, to: &conditions, &arguments, dialect: db.dialect)
            return Set(
                try await db.values(
                    "SELECT g.id FROM games g WHERE \(conditions.joined(separator: " AND "))", SQLArguments(arguments))
                    as [Int64])
        }
    }

    /// Adds the filter's conditions on `games g` (maturity, platform, genre, release year) to a query.
    static func append(
        _ filter: CatalogFilter, to conditions: inout [String], _ arguments: inout [(any SQLBindable)?],
        dialect: SQLDialect
    ) {
        if !filter.includeMature { conditions.append("g.mature = 0") }
        for (kind, value) in [("platform", filter.platform), ("genre", filter.genre)] {
            guard let value else { continue }
            conditions.append(
                """
                EXISTS (SELECT 1 FROM facets f JOIN game_facets gf ON gf.facet_id = f.id
                    WHERE f.kind = '\(kind)' AND \(dialect.equalsIgnoringCase("f.name")) AND gf.game_id = g.id)
                """)
            arguments.append(value)
        }
        if let year = filter.year {
            conditions.append("g.release_date >= ? AND g.release_date < ?")
            arguments += [yearStart(year), yearStart(year + 1)]
        }
    }

    package static func yearStart(_ year: Int) -> Double {
        Calendar.utc.date(from: DateComponents(year: year, month: 1, day: 1))!.timeIntervalSince1970
    }

    /// One game as the name index reads it.
    package struct NameRow {
        package var id: Int64
        package var name: String
        package var keywords: String?
        package var popularity: Double?
        package var mature: Bool?
        package var gameType: String?
    }

    /// Hands `body` every game's name and ranking facts, most popular first, in one snapshot; returns the
    /// catalog's generation in that snapshot.
    package func forEachName(_ body: (NameRow) throws -> Void) async throws -> Int {
        try await read { db in
            let generation =
                try await (db.value("SELECT value FROM catalog_meta WHERE key = 'catalog.generation'") as Int?) ?? 0
            try await db.forEach(
                "SELECT id, name, keywords, popularity, mature, game_type FROM games ORDER BY popularity DESC, id", []
            ) { row in
                try body(
                    NameRow(
                        id: row[0], name: row[1], keywords: row[2], popularity: row[3], mature: row[4], gameType: row[5]
                    ))
            }
            return generation
        }
    }
}
