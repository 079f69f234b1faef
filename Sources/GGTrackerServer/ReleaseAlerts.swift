import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging

/// "Out today": when a game members of a Discord server wishlisted before its release comes out, one message in
/// the server's announce channel pings exactly those members. Each alert is claimed in the database before it
/// is posted, so every process sharing it (replicas, a restart, `ggtracker alerts check` from cron) sends it
/// once; one that could not be posted is given back for the next check.
package struct ReleaseAlerts: Sendable {
    let database: AppDatabase
    let announcer: DiscordAnnouncer?
    let logger: Logger
    /// How late an alert may still go out: a release up to this long ago (a server down over the day) is announced.
    package static let lateness: TimeInterval = 3 * 86_400

    package init(database: AppDatabase, announcer: DiscordAnnouncer?, logger: Logger) {
        self.database = database
        self.announcer = announcer
        self.logger = logger
    }

    package init(services: AppServices, logger: Logger) {
        self.init(
            database: services.database,
            announcer: services.config.discordBotToken.map {
                DiscordAnnouncer(apiBase: services.config.discordAPIBase, botToken: $0)
            }, logger: logger)
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

    /// Sends every alert due at `now`; returns a line for each one this process sent.
    @discardableResult
    package func check(at now: Date = Date()) async throws -> [String] {
        let due = try await database.social.dueReleaseAlerts(
            at: now, since: now.addingTimeInterval(-Self.lateness)
        ).filter { $0.community.hasPrefix("discord:") }
        guard let announcer else {
            if !due.isEmpty {
                logger.warning(
                    "release alerts are due but DISCORD_BOT_TOKEN is not set", metadata: ["due": "\(due.count)"])
            }
            return []
        }
        var sent: [String] = []
        for alert in due {
            guard try await database.social.claimReleaseAlert(alert, at: now) else { continue }
            do {
                try await announcer.post(Self.announcement(alert))
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
