import Foundation

/// Why a challenge could not be created.
package enum ChallengeCreation: Sendable {
    case created(Challenge)
    case duplicateName
}

/// The shared side of the store: friends, the activity log, comparisons, leaderboards, challenges, share links.
package protocol SocialStore: Sendable {
    /// Recent events of a server, with its members' news made in a direct message with the bot, the caller's
    /// friends' first; or of one player when `player` is given.
    func activity(
        in community: String, of player: PlayerID?, friendsOf viewer: PlayerID, limit: Int
    ) async throws
        -> [ActivityEvent]
    /// The announce channels of the servers the player is a member of (direct messages left out).
    func announceChannels(ofMember player: PlayerID) async throws -> [AnnounceTarget]
    /// False when already friends.
    func addFriend(_ player: PlayerID, _ friend: PlayerID, at now: Date) async throws -> Bool
    func removeFriend(_ player: PlayerID, _ friend: PlayerID) async throws -> Bool
    func friends(of player: PlayerID) async throws -> [Player]
    func compare(_ left: PlayerID, _ right: PlayerID) async throws -> LibraryComparison
    /// Up to `limit` members of the server other than `player`, the one seen last first (whom to compare with).
    func recentMembers(of community: String, except player: PlayerID, limit: Int) async throws -> [Player]
    /// Every member of the server with their value of the metric over the period (from `since`, or all time).
    func leaderboard(in community: String, metric: LeaderboardMetric, since: Date?) async throws -> [(Player, Double)]
    /// Creates the challenge with its creator already taking part, in one transaction.
    func createChallenge(
        in community: String, name: String, goal: Double, unit: ChallengeUnit, startsAt: Date, endsAt: Date,
        createdBy: PlayerID
    ) async throws -> ChallengeCreation
    func challenge(in community: String, named name: String) async throws -> Challenge?
    /// The server's challenges, latest end first; with `player`, only those they take part in.
    func challenges(in community: String, joinedBy player: PlayerID?) async throws -> [Challenge]
    /// False when already in.
    func join(_ challenge: Challenge, _ player: PlayerID, at now: Date) async throws -> Bool
    /// Takes the player off the challenge, unless they won its medal: that stays theirs, with their place.
    func leave(_ challenge: Challenge, _ player: PlayerID) async throws -> ChallengeLeaving
    /// Adds to a `custom` challenge's progress; nil when the player has not joined. Awards the medal on reaching the
    /// goal; progress taken back below it takes the medal back (`medalTakenBack`).
    func addProgress(
        _ challenge: Challenge, _ player: PlayerID, amount: Double, community: String, at now: Date
    )
        async throws -> (standing: ChallengeStanding, medalTakenBack: Bool)?
    func standings(_ challenge: Challenge) async throws -> [ChallengeStanding]
    func medals(of player: PlayerID) async throws -> [Medal]
    func shareToken(of player: PlayerID) async throws -> String?
    /// Opens a game night in the channel with its host in, closing any night still open there.
    func openGameNight(
        in community: String, channel: String, host: PlayerID, mode: GameNightMode, maxHours: Double?, at now: Date
    ) async throws -> GameNight
    /// The night by id when given (in this server), or else the latest opened in the channel.
    func gameNight(id: Int64?, in community: String, channel: String) async throws -> GameNight?
    /// Adds the player; `changed` is false when they were in already.
    func joinGameNight(_ id: Int64, player: PlayerID, at now: Date) async throws -> (night: GameNight, changed: Bool)
    /// Takes the player out; `changed` is false when they were not in.
    func leaveGameNight(_ id: Int64, player: PlayerID) async throws -> (night: GameNight, changed: Bool)
    /// Moves the night to its first round of proposals (`first`) or the next, with its players' shelves.
    func advanceGameNight(
        _ id: Int64, first: Bool, mode: GameNightMode?, maxHours: Double?
    ) async throws -> (night: GameNight, shelves: [ShelfMark])
    /// Stores a one-download link to the player's export, valid until `expiresAt`.
    func createExportLink(
        _ token: String, for player: PlayerID, format: LibraryExport.Format, at now: Date, expiresAt: Date
    ) async throws
    /// Uses a link once while it is valid: whose export it opens.
    func useExportLink(_ token: String, format: LibraryExport.Format, at now: Date) async throws -> PlayerID?
    /// The player whose shared page the token opens.
    func sharedPlayer(token: String) async throws -> Player?
    /// Stores a new token for the player's shared page, replacing any earlier one.
    func setShareToken(_ token: String, for player: PlayerID, at now: Date) async throws
    func revokeShareToken(of player: PlayerID) async throws -> Bool
}
