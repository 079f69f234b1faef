import Foundation
import GGTrackerCore

extension LibraryRecords {
    /// A page of a player's library, with its counts by status.
    package func library(
        of player: PlayerID, status: GameStatus?, sort: LibrarySort, includeMature: Bool, page: Int, pageSize: Int,
        tag: String? = nil, favorites: Bool = false
    ) async throws -> LibraryPage {
        let listing = LibraryListing(
            status: status, sort: sort, page: page, pageSize: pageSize, tag: tag, favorites: favorites)
        return try await library(of: player, listing, includeMature: includeMature)
    }

    /// A page of a player's library as `listing` asks for it, with its counts by status.
    package func library(
        of player: PlayerID, _ listing: LibraryListing, includeMature: Bool
    ) async throws -> LibraryPage {
        try await read { db in try await Self.library(of: player, listing, includeMature: includeMature, in: db) }
    }

    /// A page of a player's library, read in `db`'s transaction.
    static func library(
        of player: PlayerID, _ listing: LibraryListing, includeMature: Bool, in db: any SQLSession
    ) async throws -> LibraryPage {
        // On PostgreSQL the page carries the library's counts by status in a column of its own (each statement is
        // an exchange with the server); a page with nothing on it has no row to carry them, and they are read on
        // their own, as they always are on SQLite, where a statement costs no exchange and the column a little.
        let carried = db.dialect == .postgres
        let (sql, arguments) = pageStatement(
            of: player, listing, mature: includeMature ? nil : ("g.mature = 0", []), carriesCounts: carried,
            positioned: false)
        let rows = try await db.fetchAll(sql, SQLArguments(arguments))
        if carried, let first = rows.first {
            return page(rows, counts: first["status_counts"], listing, includeMature: includeMature)
        }
        let groups = try await db.fetchAll(
            countsByGroup(listing), SQLArguments([player.rawValue] + tagArguments(listing))
        ).map { $0[0] as String }
        return page(rows, counts: groups.joined(separator: ","), listing, includeMature: includeMature)
    }

    package func tagCounts(of player: PlayerID) async throws -> [(tag: String, games: Int)] {
        let lists = try await read { db in
            try await db.values(
                "SELECT tags FROM library_entries WHERE player_id = ? AND tags <> '[]'", [player.rawValue])
                as [String]
        }
        var counts: [String: Int] = [:]
        for tag in lists.flatMap(NameList.decode) { counts[tag, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
    }

    /// The library's entries by status and age restriction, one `status mature count` text a group: only those with
    /// the listing's tag (the argument `tagArguments` gives) and, for its favorites, the favorites.
    private static func countsByGroup(_ listing: LibraryListing) -> String {
        switch (listing.tag != nil, listing.favorites) {
        case (false, false): countsByGroupAll
        case (true, false): countsByGroupTagged
        case (false, true): countsByGroupFavorites
        case (true, true): countsByGroupTaggedFavorites
        }
    }
    private static let countsByGroupAll = countsByGroup(where: "")
    private static let countsByGroupTagged = countsByGroup(where: "AND \(taggedCondition)")
    private static let countsByGroupFavorites = countsByGroup(where: "AND \(favoriteCondition)")
    private static let countsByGroupTaggedFavorites = countsByGroup(
        where: "AND \(taggedCondition) AND \(favoriteCondition)")
    private static func countsByGroup(where condition: String) -> String {
        """
        SELECT e.status || ' ' || g.mature || ' ' || count(*) AS c FROM library_entries e
        JOIN games g ON g.id = e.game_id WHERE e.player_id = ? \(condition) GROUP BY e.status, g.mature
        """
    }

    /// An entry whose stored tags (`NameList`) hold the tag as one item.
    private static let taggedCondition = "e.tags LIKE ? ESCAPE '!'"

    /// An entry marked favorite.
    private static let favoriteCondition = "e.favorite <> 0"

    /// The argument of `taggedCondition` for the listing's tag, if it has one: the tag as `NameList` writes an item,
    /// quotes included, with LIKE's wildcards escaped.
    private static func tagArguments(_ listing: LibraryListing) -> [(any SQLBindable)?] {
        guard let tag = listing.tag else { return [] }
        let item = NameList.encode([tag]).dropFirst().dropLast()
        var pattern = "%"
        for character in item {
            if character == "%" || character == "_" || character == "!" { pattern.append("!") }
            pattern.append(character)
        }
        return [pattern + "%"]
    }

    /// The statement that reads a page: the listed columns, then (`carriesCounts`) the library's counts by group in
    /// `status_counts`, and (`positioned`) the entry's place in the whole list in `position`, for a statement that
    /// joins the page to order by. `mature` is the condition, with its arguments, that leaves out the mature games
    /// the channel may not show; nil shows them.
    private static func pageStatement(
        of player: PlayerID, _ listing: LibraryListing, mature: (String, [(any SQLBindable)?])?, carriesCounts: Bool,
        positioned: Bool
    ) -> (String, [(any SQLBindable)?]) {
        var conditions = ["e.player_id = ?"]
        var arguments: [(any SQLBindable)?] = [player.rawValue]
        if let status = listing.status {
            conditions.append("e.status = ?")
            arguments.append(status.rawValue)
        }
        if listing.tag != nil {
            conditions.append(taggedCondition)
            arguments += tagArguments(listing)
        }
        if listing.favorites { conditions.append(favoriteCondition) }
        if let (condition, values) = mature {
            conditions.append(condition)
            arguments += values
        }
        let order =
            switch listing.sort {
            case .recent: "e.updated_at DESC, g.name"
            case .score: "e.score IS NULL, e.score DESC, g.name"
            case .hours: "e.hours IS NULL, e.hours DESC, g.name"
            case .name: "lower(g.name), g.name, g.release_date"
            }
        let counted =
            carriesCounts
            ? ", (SELECT string_agg(c, ',') FROM (\(countsByGroup(listing))) AS status_groups) AS status_counts"
            : ""
        let position = positioned ? ", row_number() OVER (ORDER BY \(order)) AS position" : ""
        let sql = """
            SELECT \(LibraryRows.listedColumns) \(counted) \(position)
            FROM library_entries e JOIN games g ON g.id = e.game_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ? OFFSET ?
            """
        return (
            sql,
            (carriesCounts ? [player.rawValue] + tagArguments(listing) : []) + arguments
                + [listing.pageSize, (listing.page - 1) * listing.pageSize]
        )
    }

    /// The page of `rows` (each beginning with the listed columns), with the library's counts by status from
    /// `counts` (`status mature count` groups, comma-separated).
    private static func page(
        _ rows: [SQLRow], counts joined: String?, _ listing: LibraryListing, includeMature: Bool
    ) -> LibraryPage {
        var counts: [GameStatus: Int] = [:]
        var hidden = 0
        for group in joined?.split(separator: ",") ?? [] {
            // "status mature count"
            let parts = group.split(separator: " ")
            guard parts.count == 3, let n = Int(parts[2]) else { continue }
            let rawStatus = String(parts[0])
            if parts[1] != "0" && !includeMature {
                if listing.status == nil || listing.status?.rawValue == rawStatus { hidden += n }
                continue
            }
            if let s = GameStatus(rawValue: rawStatus) { counts[s, default: 0] += n }
        }
        let total = listing.status.map { counts[$0] ?? 0 } ?? counts.values.reduce(0, +)
        return LibraryPage(
            page: Page(
                items: rows.map(LibraryRows.listedEntry(from:)), page: listing.page,
                pageCount: pageCount(total, listing.pageSize), total: total),
            statusCounts: counts, hiddenMature: hidden)
    }

    /// On PostgreSQL, the caller (as `caller(_:at:naming:listing:)` reads them) and the page of their library
    /// `listing` asks for, in one statement, which needs no transaction around it: one exchange with the server.
    /// The page shows the mature games the caller's channel may show, by the rule of
    /// `CommunitySettings.showsMature(to:)` on the server's settings read in the same statement. Nil when the
    /// player is not recorded; the page is nil when it has nothing on it (the counts then come from a read of their
    /// own).
    func callerListing(
        _ invoker: Invoker, _ listing: LibraryListing
    ) async throws -> (caller: Caller, answered: Data?)? {
        let player = invoker.player
        let (page, pageArguments) = Self.pageStatement(
            of: player, listing,
            mature: ("(g.mature = 0 OR ? = 1 OR c.age_gate = 'off')", [invoker.channelIsAgeRestricted ? 1 : 0]),
            carriesCounts: true, positioned: true)
        let arguments: [(any SQLBindable)?] = [invoker.community, claim?.id] + pageArguments + [player.rawValue]
        let sql = """
            SELECT p.*, c.age_gate, c.announce_channel, d.response AS answered, l.* FROM players p
            LEFT JOIN communities c ON c.id = ? LEFT JOIN processed_interactions d ON d.id = ?
            LEFT JOIN LATERAL (\(page)) AS l ON true
            WHERE p.id = ? ORDER BY l.position
            """
        let rows = try await executor.readStatement { db in try await db.fetchAll(sql, SQLArguments(arguments)) }
        guard let first = rows.first else { return nil }
        let gate: String? = first["age_gate"]
        let settings = CommunitySettings(
            announceChannel: first["announce_channel"], ageGate: gate.flatMap(AgeGate.init) ?? .strict)
        var caller = Caller(player: LibraryRows.player(from: first), settings: settings)
        // The page's columns follow the caller's; a page with nothing on it is one row of nulls.
        let start = first.columns.position(of: "answered")! + 1
        // The page's own columns, worked out once per statement text.
        let columns = SQLColumns.of(
            "page of: " + sql, .postgres, names: Array(first.columns.names[start...]),
            fit: { $0.names.count == first.count - start })
        let listed = rows.compactMap { row -> SQLRow? in
            guard row.values[start] != .null else { return nil }
            return SQLRow(values: Array(row.values[start...]), columns: columns)
        }
        if let top = listed.first {
            caller.listed = Self.page(
                listed, counts: top["status_counts"], listing, includeMature: settings.showsMature(to: invoker))
        }
        return (caller, first["answered"])
    }
}
