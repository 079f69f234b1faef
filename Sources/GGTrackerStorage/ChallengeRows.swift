import Foundation
import GGTrackerCore

/// How challenges are read, a participant's progress counted and the medals a change wins, inside a transaction
/// held by whichever store made the change (a library change, a join, custom progress).
enum ChallengeRows {
    static func challenge(from row: SQLRow) -> Challenge {
        Challenge(
            id: row["id"], name: row["name"], goal: row["goal"],
            unit: ChallengeUnit(rawValue: row["unit"]) ?? .custom,
            startsAt: Date(timeIntervalSince1970: row["starts_at"]),
            endsAt: Date(timeIntervalSince1970: row["ends_at"]),
            createdBy: PlayerID(row["created_by"] as String))
    }

    /// A participant's progress: library events inside the window, or the custom amount.
    static func progress(_ db: any SQLSession, challenge: Challenge, player: PlayerID) async throws -> Double {
        guard let event = challenge.unit.event else {
            return try await
                (db.value(
                    "SELECT custom_progress FROM challenge_participants WHERE challenge_id = ? AND player_id = ?",
                    [challenge.id, player.rawValue]) as Double?) ?? 0
        }
        // Hours add up; a game completed or reviewed twice counts once.
        let measure = event == .hours ? "coalesce(sum(amount), 0)" : "count(DISTINCT game_id)"
        return try await
            (db.value(
                """
                SELECT \(measure) FROM events
                WHERE player_id = ? AND kind = ? AND created_at >= ? AND created_at < ?
                """,
                [
                    player.rawValue, event.rawValue, challenge.startsAt.timeIntervalSince1970,
                    challenge.endsAt.timeIntervalSince1970,
                ]) as Double?) ?? 0
    }

    /// After progress was taken back (a mistyped amount or number of hours corrected), the medal of each running
    /// challenge whose goal the player no longer reaches goes too, with its news: a medal stands for the goal
    /// reached. Returns the challenges' names. A challenge that has ended keeps its medals. With `only`, that
    /// challenge alone is looked at (custom progress moves no other).
    static func takeBackMedals(
        _ db: any SQLSession, player: PlayerID, at now: Date, only: Challenge? = nil
    ) async throws -> [String] {
        let t = now.timeIntervalSince1970
        let rows = try await db.fetchAll(
            """
            SELECT c.*, c.community_id AS community FROM challenges c
            JOIN challenge_participants p ON p.challenge_id = c.id
            WHERE p.player_id = ? AND p.medal_at IS NOT NULL AND c.starts_at <= ? AND c.ends_at > ?
            \(only == nil ? "" : "AND c.id = ?")
            """, [player.rawValue, t, t] + (only.map { [$0.id] } ?? []))
        var lost: [String] = []
        for row in rows {
            let challenge = challenge(from: row)
            guard try await progress(db, challenge: challenge, player: player) < challenge.goal else { continue }
            try await db.execute(
                "UPDATE challenge_participants SET medal_at = NULL WHERE challenge_id = ? AND player_id = ?",
                [challenge.id, player.rawValue])
            try await db.execute(
                "DELETE FROM events WHERE community_id = ? AND player_id = ? AND kind = 'medal' AND detail = ?",
                [row["community"] as String, player.rawValue, challenge.name])
            lost.append(challenge.name)
        }
        return lost
    }

    /// Awards the medal of every running challenge of the player whose goal is now reached; returns their names.
    /// The running challenges the player has joined and has no medal of yet, sent without waiting.
    static func medalCandidates(_ db: any SQLSession, player: PlayerID, at now: Date) async throws -> SQLPending {
        let t = now.timeIntervalSince1970
        return try await db.prefetch(
            """
            SELECT c.*, c.community_id AS community FROM challenges c
            JOIN challenge_participants p ON p.challenge_id = c.id
            WHERE p.player_id = ? AND p.medal_at IS NULL AND c.starts_at <= ? AND c.ends_at > ?
            """, [player.rawValue, t, t])
    }

    /// Every challenge the player takes part in without a medal yet, whatever its dates: read ahead of a change
    /// (with the caller, or with their shelves); `running(_:at:)` keeps those a change at a given moment could
    /// award a medal in.
    static func unfinishedChallenges(_ db: any SQLSession, player: PlayerID) async throws -> SQLPending {
        try await db.prefetch(
            """
            SELECT c.*, c.community_id AS community FROM challenges c
            JOIN challenge_participants p ON p.challenge_id = c.id WHERE p.player_id = ? AND p.medal_at IS NULL
            """, [player.rawValue])
    }

    /// The challenges of `unfinishedChallenges` running at `now`, as `medalCandidates` reads them.
    static func running(_ challenges: [SQLRow], at now: Date) -> [SQLRow] {
        let t = now.timeIntervalSince1970
        return challenges.filter { ($0["starts_at"] as Double) <= t && ($0["ends_at"] as Double) > t }
    }

    /// Awards the medals of the challenges the player's progress now reaches; `candidates` as
    /// `medalCandidates` read them, in the same transaction. Returns the names of those won.
    @discardableResult
    static func awardMedals(
        _ db: any SQLSession, player: PlayerID, at now: Date, candidates: SQLPending? = nil
    ) async throws -> [String] {
        try await checkChallenges(db, player: player, at: now, candidates: candidates).won.map(\.name)
    }

    /// `awardMedals`, and where the player now stands in the other challenges that count one of `events`.
    static func checkChallenges(
        _ db: any SQLSession, player: PlayerID, at now: Date, candidates: SQLPending? = nil,
        counting events: [EventKind] = []
    ) async throws -> (won: [(name: String, community: String)], counted: [(challenge: Challenge, progress: Double)]) {
        let t = now.timeIntervalSince1970
        let pending: SQLPending
        if let candidates {
            pending = candidates
        } else {
            pending = try await medalCandidates(db, player: player, at: now)
        }
        let rows = try await pending.rows()
        var won: [(name: String, community: String)] = []
        var counted: [(challenge: Challenge, progress: Double)] = []
        for row in rows {
            let challenge = challenge(from: row)
            let progress = try await progress(db, challenge: challenge, player: player)
            guard progress >= challenge.goal else {
                if let event = challenge.unit.event, events.contains(event) {
                    counted.append((challenge, progress))
                }
                continue
            }
            // Awarded once, even if two changes reach the goal at the same moment.
            guard
                try await db.execute(
                    """
                    UPDATE challenge_participants SET medal_at = ?
                    WHERE challenge_id = ? AND player_id = ? AND medal_at IS NULL
                    """, [t, challenge.id, player.rawValue]) > 0
            else { continue }
            let community: String = row["community"]
            try await SocialRecords.recordEvent(
                db, community: community, player: player, kind: .medal, game: nil, amount: nil,
                detail: challenge.name, at: now)
            won.append((challenge.name, community))
        }
        return (won, counted)
    }

    /// Everyone's standing in the challenge, best first; or one player's.
    static func standings(
        _ db: any SQLSession, _ challenge: Challenge, of player: PlayerID? = nil
    ) async throws -> [ChallengeStanding] {
        let rows = try await db.fetchAll(
            """
            SELECT pl.*, cp.medal_at FROM challenge_participants cp JOIN players pl ON pl.id = cp.player_id
            WHERE cp.challenge_id = ?\(player == nil ? "" : " AND cp.player_id = ?")
            """, SQLArguments([challenge.id, player?.rawValue].filter { $0 != nil }))
        var standings: [ChallengeStanding] = []
        for row in rows {
            let player = LibraryRows.player(from: row)
            standings.append(
                ChallengeStanding(
                    player: player, progress: try await progress(db, challenge: challenge, player: player.id),
                    medalAt: (row["medal_at"] as Double?).map(Date.init(timeIntervalSince1970:))))
        }
        return
            standings.sorted { ($0.progress, $1.player.shownName) > ($1.progress, $0.player.shownName) }
    }
}
