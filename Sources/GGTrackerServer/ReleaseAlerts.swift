import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging

/// "Out today": when a game members of a Discord server (or of a Matrix room) wishlisted before its release comes
/// out, one message in the server's announce channel (in the room) pings exactly those members. Each alert is
/// claimed in the database before it is posted, so every process sharing it (replicas, a restart, `ggtracker alerts
/// check` from cron) sends it once; one that could not be posted is given back for the next check.
package struct ReleaseAlerts: Sendable {
    let database: AppDatabase
    let announcer: DiscordAnnouncer?
    let matrix: MatrixClient?
    let slack: SlackAnnouncer?
    let logger: Logger
    /// How late an alert may still go out: a release up to this long ago (a server down over the day) is announced.
    package static let lateness: TimeInterval = 3 * 86_400

    package init(
        database: AppDatabase, announcer: DiscordAnnouncer?, matrix: MatrixClient? = nil, slack: SlackAnnouncer? = nil,
        logger: Logger
    ) {
        self.database = database
        self.announcer = announcer
        self.matrix = matrix
        self.slack = slack
        self.logger = logger
    }

    /// Posting where the configuration allows: Discord with its bot token, Matrix with the homeserver's address and
    /// the application service's token.
    package init(database: AppDatabase, config: AppConfig, logger: Logger) {
        self.init(
            database: database,
            announcer: config.discordBotToken.map { DiscordAnnouncer(apiBase: config.discordAPIBase, botToken: $0) },
            matrix: config.matrixHomeserverURL.flatMap { url in
                config.matrixASToken.map { MatrixClient(homeserver: url, asToken: $0) }
            },
            slack: config.slackFiles.botToken.map { SlackAnnouncer(apiBase: config.slackFiles.apiBase, token: $0) },
            logger: logger)
    }

    package init(services: AppServices, logger: Logger) {
        self.init(database: services.database, config: services.config, logger: logger)
    }

    /// The message of one alert.
    static func announcement(_ alert: DueReleaseAlert) -> Announcement {
        let ids = alert.wishers.map(\.platformUserID)
        var text: RichText = "Out today: \(bold: alert.game.name) — wishlisted by "
        for (index, id) in ids.enumerated() {
            if index > 0 { text += ", " }
            text += "\(mention: id)"
        }
        let card = Card(
            title: alert.game.displayName, url: alert.game.url,
            description: RichText(GGTrackerBot.oneLine(alert.game)), thumbnailURL: alert.game.thumbnailURL,
            footer: alert.game.ref.description, color: Palette.wishlist)
        return Announcement(channel: alert.channel, text: text, cards: [card], pinging: ids)
    }

    /// Posts one alert: to the Discord channel, or to the Matrix room, pinging its wishers (`m.mentions`). The room
    /// message's transaction id is the alert's, so a retry the homeserver already took is not shown twice.
    func post(_ alert: DueReleaseAlert) async throws {
        let announcement = Self.announcement(alert)
        if alert.community.hasPrefix("matrix:"), let matrix {
            var content = Reply(text: announcement.text, cards: announcement.cards).matrixContent(replyTo: nil)
            content.mentions.userIDs = announcement.pinging
            let release = Int(alert.game.releaseDate?.timeIntervalSince1970 ?? 0)
            try await matrix.send(
                content, to: alert.channel, transaction: "gg-alert-\(alert.channel)-\(alert.game.id)-\(release)")
        } else if alert.community.hasPrefix("slack:"), let slack {
            try await slack.post(announcement)
        } else if let announcer {
            try await announcer.post(announcement)
        }
    }

    /// Sends every alert due at `now`; returns a line for each one this process sent.
    @discardableResult
    package func check(at now: Date = Date()) async throws -> [String] {
        let all = try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-Self.lateness))
        var due: [DueReleaseAlert] = []
        for (platform, setting, postable) in [
            ("discord:", "DISCORD_BOT_TOKEN", announcer != nil), ("matrix:", "MATRIX_AS_TOKEN", matrix != nil),
            ("slack:", "SLACK_BOT_TOKEN", slack != nil),
        ] {
            let alerts = all.filter { $0.community.hasPrefix(platform) }
            if postable {
                due += alerts
            } else if !alerts.isEmpty {
                logger.warning(
                    "release alerts are due but \(setting) is not set", metadata: ["due": "\(alerts.count)"])
            }
        }
        var sent: [String] = []
        for alert in due {
            guard try await database.social.claimReleaseAlert(alert, at: now) else { continue }
            do {
                try await post(alert)
                sent.append(
                    "\(alert.game.displayName) in \(alert.community), channel \(alert.channel), pinging "
                        + alert.wishers.map(\.rawValue).joined(separator: ", "))
            } catch {
                logger.warning(
                    "release alert not posted", metadata: ["game": "\(alert.game.ref)", "error": "\(error)"])
                try? await database.social.unclaimReleaseAlert(alert)
            }
        }
        return sent
    }
}
