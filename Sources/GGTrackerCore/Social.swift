import Foundation

/// What happened in someone's library, as the activity feed, leaderboards and challenges see it.
package enum EventKind: String, CaseIterable, Sendable, Codable {
    case added, started, completed, rated, reviewed, wishlisted, hours, medal

    package var verb: String {
        switch self {
        case .added: "added"
        case .started: "started playing"
        case .completed: "completed"
        case .rated: "rated"
        case .reviewed: "reviewed"
        case .wishlisted: "wishlisted"
        case .hours: "played"
        case .medal: "won a medal in"
        }
    }

    package var emoji: String {
        switch self {
        case .added: "➕"
        case .started: "🎮"
        case .completed: "✅"
        case .rated: "⭐"
        case .reviewed: "📝"
        case .wishlisted: "🎁"
        case .hours: "⏱️"
        case .medal: "🏅"
        }
    }
}

/// One recorded event.
package struct ActivityEvent: Hashable, Sendable {
    package var player: Player
    package var kind: EventKind
    package var game: Game?
    /// Score for `rated`, hours added for `hours`.
    package var amount: Double?
    /// The challenge name for `medal`.
    package var detail: String?
    package var at: Date

    package init(player: Player, kind: EventKind, game: Game?, amount: Double?, detail: String?, at: Date) {
        self.player = player
        self.kind = kind
        self.game = game
        self.amount = amount
        self.detail = detail
        self.at = at
    }
}

/// An event about to be recorded: derived from a library change.
package struct NewEvent: Hashable, Sendable {
    package var kind: EventKind
    package var amount: Double?
    package init(_ kind: EventKind, amount: Double? = nil) {
        self.kind = kind
        self.amount = amount
    }

    /// Hours lowered (a correction): not news, but what the store takes back from the hours it counted.
    package var takesBackHours: Bool { kind == .hours && (amount ?? 0) < 0 }

    /// The events a library change means: a new entry is `added` (and `started`/`completed` by its status), a new
    /// status `started` or `completed`, a new score `rated`, a new review text `reviewed`, more hours `hours`, and
    /// fewer hours an `hours` event below zero (`takesBackHours`), so a mistyped number corrected counts as corrected
    /// in periods, challenges and recaps.
    package static func derive(before: LibraryEntry?, after: LibraryEntry?) -> [NewEvent] {
        guard let after else { return [] }
        var events: [NewEvent] = []
        if before == nil { events.append(NewEvent(.added)) }
        if after.status != before?.status {
            if after.status == .playing { events.append(NewEvent(.started)) }
            if after.status == .completed { events.append(NewEvent(.completed)) }
        }
        if let score = after.score, score != before?.score { events.append(NewEvent(.rated, amount: Double(score))) }
        if let review = after.review, review != before?.review { events.append(NewEvent(.reviewed)) }
        let added = (after.hours ?? 0) - (before?.hours ?? 0)
        if added != 0 { events.append(NewEvent(.hours, amount: added)) }
        return events
    }
}

/// What a challenge counts.
package enum ChallengeUnit: String, CaseIterable, Sendable {
    case gamesCompleted = "games_completed"
    case hoursPlayed = "hours_played"
    case reviewsWritten = "reviews_written"
    case custom

    package var label: String {
        switch self {
        case .gamesCompleted: "games completed"
        case .hoursPlayed: "hours played"
        case .reviewsWritten: "reviews written"
        case .custom: "points"
        }
    }

    /// The library event that moves it forward by itself; nil for `custom`.
    package var event: EventKind? {
        switch self {
        case .gamesCompleted: .completed
        case .hoursPlayed: .hours
        case .reviewsWritten: .reviewed
        case .custom: nil
        }
    }
}

/// A group challenge of one server.
package struct Challenge: Hashable, Sendable {
    package var id: Int64
    package var name: String
    package var goal: Double
    package var unit: ChallengeUnit
    package var startsAt: Date
    package var endsAt: Date
    package var createdBy: PlayerID

    package init(
        id: Int64, name: String, goal: Double, unit: ChallengeUnit, startsAt: Date, endsAt: Date, createdBy: PlayerID
    ) {
        self.id = id
        self.name = name
        self.goal = goal
        self.unit = unit
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.createdBy = createdBy
    }

    package func isOver(at now: Date) -> Bool { now >= endsAt }
}

/// A participant's standing in a challenge.
package struct ChallengeStanding: Hashable, Sendable {
    package var player: Player
    package var progress: Double
    package var medalAt: Date?
    package init(player: Player, progress: Double, medalAt: Date?) {
        self.player = player
        self.progress = progress
        self.medalAt = medalAt
    }
}

/// What `/challenge leave` did.
package enum ChallengeLeaving: Sendable {
    case left, wasNotIn
    /// The player won its medal, which is kept with their place on the board.
    case keepsMedal
}

/// A medal a player won.
package struct Medal: Hashable, Sendable {
    package var challenge: String
    package var at: Date
    package init(challenge: String, at: Date) {
        self.challenge = challenge
        self.at = at
    }
}

/// What a leaderboard ranks.
package enum LeaderboardMetric: String, CaseIterable, Sendable {
    case completed, hours, reviews
    case scoreCount = "score_count"

    /// `/leaderboard`'s option, with the other words people rank by ("played" for hours, "rated" for games rated).
    static var option: OptionSpec {
        option(
            "metric", "What to rank by",
            saying: [
                (.completed, ["finished", "beaten", "beat", "done", "completions", "games"]),
                (.hours, ["played", "playtime", "hrs"]),
                (.reviews, ["reviewed", "review"]),
                (.scoreCount, ["rated", "ratings", "rating", "scores", "scored", "rates"]),
            ])
    }

    package var label: String {
        switch self {
        case .completed: "games completed"
        case .hours: "hours played"
        case .reviews: "reviews written"
        case .scoreCount: "games rated"
        }
    }
}

/// The time window of a leaderboard.
package enum Period: String, CaseIterable, Sendable {
    case week, month, all

    /// `/leaderboard`'s option, with the other words people say for all time ("ever", "overall").
    static var option: OptionSpec {
        option(
            "period", "Over which time",
            saying: [(.all, ["ever", "alltime", "all-time", "forever", "overall", "total"])])
    }

    /// The start of the window ending at `now`; nil for all time.
    package func start(before now: Date) -> Date? {
        switch self {
        case .week: now.addingTimeInterval(-7 * 86_400)
        case .month: now.addingTimeInterval(-30 * 86_400)
        case .all: nil
        }
    }

    package var label: String {
        switch self {
        case .week: "the last 7 days"
        case .month: "the last 30 days"
        case .all: "all time"
        }
    }

    /// The window as a sentence ends: " in the last 7 days", and nothing for all time.
    package var within: String { self == .all ? "" : " in " + label }
}

/// One row of a leaderboard; equal values share a rank (1, 2, 2, 4).
package struct LeaderboardRow: Hashable, Sendable {
    package var rank: Int
    package var player: Player
    package var value: Double
    package init(rank: Int, player: Player, value: Double) {
        self.rank = rank
        self.player = player
        self.value = value
    }

    /// Ranks values, highest first, ties sharing a rank.
    package static func ranked(_ values: [(Player, Double)]) -> [LeaderboardRow] {
        let sorted = values.sorted { ($0.1, $1.0.shownName) > ($1.1, $0.0.shownName) }
        var rows: [LeaderboardRow] = []
        for (index, (player, value)) in sorted.enumerated() {
            let rank = index > 0 && rows[index - 1].value == value ? rows[index - 1].rank : index + 1
            rows.append(LeaderboardRow(rank: rank, player: player, value: value))
        }
        return rows
    }
}

/// Two libraries side by side, for `/compare`.
package struct LibraryComparison: Sendable {
    /// Games both have: (game, left entry, right entry).
    package var shared: [(game: Game, left: LibraryEntry, right: LibraryEntry)]
    /// Games the left player completed that the right one wishlisted.
    package var leftFinishedRightWants: [Game]
    package var rightFinishedLeftWants: [Game]
    package var leftCount: Int
    package var rightCount: Int

    package init(
        shared: [(game: Game, left: LibraryEntry, right: LibraryEntry)], leftFinishedRightWants: [Game],
        rightFinishedLeftWants: [Game], leftCount: Int, rightCount: Int
    ) {
        self.shared = shared
        self.leftFinishedRightWants = leftFinishedRightWants
        self.rightFinishedLeftWants = rightFinishedLeftWants
        self.leftCount = leftCount
        self.rightCount = rightCount
    }

    /// The same libraries without the games the age gate hides, for the games a channel names; the counts stay.
    package func withoutMature() -> LibraryComparison {
        var shown = self
        shown.shared = shared.filter { !$0.game.isMature }
        shown.leftFinishedRightWants = leftFinishedRightWants.filter { !$0.isMature }
        shown.rightFinishedLeftWants = rightFinishedLeftWants.filter { !$0.isMature }
        return shown
    }

    /// Games both rated: (game, left score, right score).
    package var bothRated: [(game: Game, left: Int, right: Int)] {
        shared.compactMap { item in
            guard let l = item.left.score, let r = item.right.score else { return nil }
            return (item.game, l, r)
        }
    }

    /// 100 × (1 − mean |difference| / 9) over games both rated: 100 % when every score agrees, 0 % when every one is
    /// as far apart as 1 and 10. Nil when they rated no game in common.
    package var compatibility: Int? {
        let rated = bothRated
        guard !rated.isEmpty else { return nil }
        let meanGap = Double(rated.map { abs($0.left - $0.right) }.reduce(0, +)) / Double(rated.count)
        return Int((100 * (1 - meanGap / 9)).rounded())
    }

    /// The shared game their scores differ on most, when there is a choice (two or more both rated) and they
    /// differ by a whole star or more: a point apart on the only game both rated is no disagreement to name.
    package var biggestDisagreement: (game: Game, left: Int, right: Int)? {
        let rated = bothRated
        guard rated.count >= 2 else { return nil }
        return rated.filter { abs($0.left - $0.right) >= 2 }.max { abs($0.left - $0.right) < abs($1.left - $1.right) }
    }
}
