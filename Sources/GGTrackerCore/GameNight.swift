import Foundation

/// Which games a game night considers, by the catalog's game modes.
package enum GameNightMode: String, CaseIterable, Sendable {
    case any, coop, multiplayer

    /// A game of unknown modes fits only `any`: nobody can tell whether it can be played together.
    package func fits(_ game: Game) -> Bool {
        switch self {
        case .any: true
        case .coop: game.modes.contains("Co-operative")
        case .multiplayer: game.modes.contains { $0 != "Single player" }
        }
    }

    package var label: String {
        switch self {
        case .any: "any game"
        case .coop: "co-op"
        case .multiplayer: "multiplayer"
        }
    }
}

/// What `/gamenight` is asked to do: open a night, or act on the one open in the channel.
package enum GameNightAction: String, CaseIterable, Sendable {
    case start, join, leave, pick, reroll
}

/// A game night as stored: who is in, what it looks for, how many rounds of proposals it has shown.
package struct GameNight: Equatable, Sendable {
    package var id: Int64
    package var community: String
    package var channel: String
    package var host: PlayerID
    package var mode: GameNightMode
    package var maxHours: Double?
    /// Rounds of proposals shown: 0 before the first pick, 1 after it, one more per reroll.
    package var round: Int
    package var createdAt: Date
    package var expiresAt: Date
    /// Everyone in, first joined first.
    package var players: [Player]
    /// Replaced by a newer night in the same channel.
    package var isClosed = false

    package init(
        id: Int64, community: String, channel: String, host: PlayerID, mode: GameNightMode, maxHours: Double?,
        round: Int, createdAt: Date, expiresAt: Date, players: [Player]
    ) {
        self.id = id
        self.community = community
        self.channel = channel
        self.host = host
        self.mode = mode
        self.maxHours = maxHours
        self.round = round
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.players = players
    }

    /// How long a night stays open.
    package static let lifetime: TimeInterval = 12 * 3600
    /// How many games a round proposes.
    package static let proposalsPerRound = 3

    package func isOver(at now: Date) -> Bool { now >= expiresAt }
    package func has(_ player: PlayerID) -> Bool { players.contains { $0.id == player } }
}

/// One game on one player's shelves: in the library with its status, or wishlisted (`status` nil).
package struct ShelfMark: Equatable, Sendable {
    package var player: PlayerID
    package var game: Game
    package var status: GameStatus?

    package init(player: PlayerID, game: Game, status: GameStatus?) {
        self.player = player
        self.game = game
        self.status = status
    }
}

/// A game proposed for the night, with why.
package struct GameProposal: Equatable, Sendable {
    package var game: Game
    package var owners: [Player] = []
    package var wishers: [Player] = []
    /// Players who completed or dropped it.
    package var finished: [Player] = []
    /// Those of `finished` who dropped it.
    package var dropped: [Player] = []

    /// Owners 2 points each, wishers 1, minus 1 for each player who completed or dropped it.
    package var points: Int { 2 * owners.count + wishers.count - finished.count }

    /// The games on the players' shelves that fit the night, best first: by points, then critics' rating, then
    /// name. A game longer than `maxHours` to beat (when its time is known) is left out, as are mature games where
    /// they are not shown.
    package static func ranked(
        _ marks: [ShelfMark], players: [Player], mode: GameNightMode, maxHours: Double?, includeMature: Bool
    ) -> [GameProposal] {
        let byID = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var proposals: [Int64: GameProposal] = [:]
        for mark in marks {
            guard let player = byID[mark.player], mode.fits(mark.game), includeMature || !mark.game.isMature else {
                continue
            }
            if let maxHours, let seconds = mark.game.timeToBeat?.normally, Double(seconds) > maxHours * 3600 {
                continue
            }
            var proposal = proposals[mark.game.id] ?? GameProposal(game: mark.game)
            switch mark.status {
            case nil: proposal.wishers.append(player)
            case .completed?, .dropped?:
                proposal.owners.append(player)
                proposal.finished.append(player)
                if mark.status == .dropped { proposal.dropped.append(player) }
            case _?: proposal.owners.append(player)
            }
            proposals[mark.game.id] = proposal
        }
        return proposals.values.sorted {
            ($1.points, $1.game.criticRating ?? -1, $0.game.name, $0.game.id)
                < ($0.points, $0.game.criticRating ?? -1, $1.game.name, $1.game.id)
        }
    }

    /// The proposals of a round (1 for the first pick), starting over when the list runs out, with the position
    /// of the first of them in the list.
    package static func round(_ round: Int, of ranked: [GameProposal]) -> (start: Int, shown: [GameProposal]) {
        guard !ranked.isEmpty else { return (0, []) }
        let size = GameNight.proposalsPerRound
        let rounds = (ranked.count + size - 1) / size
        let start = ((max(round, 1) - 1) % rounds) * size
        return (start, Array(ranked[start..<min(start + size, ranked.count)]))
    }
}

extension GameNightAction {
    /// `/gamenight`'s action option, with what people type for its buttons ("I'm in").
    static var option: OptionSpec {
        option(
            "action", "What to do (default: start a game night here)",
            saying: [
                (.join, ["in", "i'm in", "im in", "i’m in", "count me in"]),
                (.leave, ["out", "i'm out", "im out", "i’m out"]),
                (.reroll, ["again", "roll again", "another"]),
            ])
    }
}
