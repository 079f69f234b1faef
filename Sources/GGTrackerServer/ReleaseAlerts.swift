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
    /// Discord's and Slack's announce channels; a Matrix room is posted to with the application service's token.
    let channels: ChannelAnnouncers
    let matrix: MatrixClient?
    let logger: Logger
    /// How late an alert may still go out: a release up to this long ago (a server down over the day) is announced.
    package static let lateness: TimeInterval = 3 * 86_400

    /// Posting where the configuration allows: Discord and Slack with their bot tokens, Matrix with the
    /// homeserver's address and the application service's token.
    package init(database: AppDatabase, config: AppConfig, channels: ChannelAnnouncers? = nil, logger: Logger) {
        self.database = database
        self.channels = channels ?? ChannelAnnouncers(config: config)
        self.matrix = config.matrixHomeserverURL.flatMap { url in
            config.matrixASToken.map { MatrixClient(homeserver: url, asToken: $0) }
        }
        self.logger = logger
    }

    package init(services: AppServices, logger: Logger) {
        self.init(database: services.database, config: services.config, channels: services.announcers, logger: logger)
    }

    /// Why a release alert did not go to a Discord or Slack channel, as its admins are told.
    struct NotPosted: Error, CustomStringConvertible {
        var description: String
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
        return Announcement(channel: alert.channel, text: text, cards: [card], pinging: ids, community: alert.community)
    }

    typealias Post = @Sendable (DueReleaseAlert) async throws -> Void

    /// How a community's alerts go out: the setting that lets this installation post to its platform, and the post
    /// itself, nil where that setting is not set; nil for a platform without alerts.
    func poster(for community: String) -> (setting: String, post: Post?)? {
        switch community.prefix(while: { $0 != ":" }) {
        case "discord": return channelPoster(.discord, setting: "DISCORD_BOT_TOKEN")
        case "slack": return channelPoster(.slack, setting: "SLACK_BOT_TOKEN")
        case "matrix":
            guard let matrix else { return ("MATRIX_AS_TOKEN", nil) }
            // The alert's own transaction id: a retry the homeserver already took is not shown twice.
            let post: Post = { alert in
                let release = Int(alert.game.releaseDate?.timeIntervalSince1970 ?? 0)
                try await matrix.post(
                    Self.announcement(alert), transaction: "gg-alert-\(alert.channel)-\(alert.game.id)-\(release)")
            }
            return ("MATRIX_AS_TOKEN", post)
        default: return nil
        }
    }

    /// An announce channel's post, as a command's announcement goes: how it went is noted for the admins.
    private func channelPoster(_ platform: ChatPlatform, setting: String) -> (setting: String, post: Post?) {
        guard channels.platforms.contains(platform) else { return (setting, nil) }
        let post: Post = { [channels, database, logger] alert in
            if let why = await channels.postNoting(
                Self.announcement(alert), on: platform, database: database, logger: logger)
            {
                throw NotPosted(description: why)
            }
        }
        return (setting, post)
    }

    /// Sends every alert due at `now`; returns a line for each one this process sent.
    @discardableResult
    package func check(at now: Date = Date()) async throws -> [String] {
        let all = try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-Self.lateness))
        var due: [(alert: DueReleaseAlert, post: Post)] = []
        var unposted: [String: Int] = [:]
        for alert in all {
            guard let poster = poster(for: alert.community) else { continue }
            if let post = poster.post {
                due.append((alert, post))
            } else {
                unposted[poster.setting, default: 0] += 1
            }
        }
        for (setting, count) in unposted.sorted(by: { $0.key < $1.key }) {
            logger.warning("release alerts are due but \(setting) is not set", metadata: ["due": "\(count)"])
        }
        var sent: [String] = []
        for (alert, post) in due {
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
