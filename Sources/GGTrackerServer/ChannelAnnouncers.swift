import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging

/// The announce channels this installation posts to: a Discord server's with the bot's token, a Slack workspace's
/// with the app's bot token. A channel an admin sets is posted to at once; why it could not be is said in words
/// the admin can act on (the bot's permissions there, the app not invited).
package struct ChannelAnnouncers: AnnounceChannels {
    package var discord: DiscordAnnouncer?
    package var slack: SlackAnnouncer?

    package init(discord: DiscordAnnouncer?, slack: SlackAnnouncer?) {
        self.discord = discord
        self.slack = slack
    }

    package init(config: AppConfig) {
        self.init(
            discord: config.discordBotToken.map { DiscordAnnouncer(apiBase: config.discordAPIBase, botToken: $0) },
            slack: config.slackFiles.botToken.map { SlackAnnouncer(apiBase: config.slackFiles.apiBase, token: $0) })
    }

    package var platforms: Set<ChatPlatform> {
        Set((discord == nil ? [] : [.discord]) + (slack == nil ? [] : [.slack]))
    }

    package func tryPost(_ announcement: Announcement, on platform: ChatPlatform) async -> RichText? {
        do {
            switch platform {
            case .discord:
                guard let discord else { return "this installation has no Discord bot token." }
                try await discord.post(announcement)
            case .slack:
                guard let slack else { return "this installation has no Slack bot token." }
                try await slack.post(announcement)
            default:
                return "announcements are posted on Discord and Slack only."
            }
            return nil
        } catch let failure as DiscordAnnouncer.Failure {
            return Self.discordReason(failure.status == 401 ? 40001 : failure.code)
        } catch let failure as SlackAnnouncer.Failure {
            return Self.slackReason(failure.error)
        } catch {
            return "the post did not go through (\(String(describing: error).prefix(120))); try again in a moment."
        }
    }

    /// Posts, and notes how the post went for the community's admins (`/admin settings` shows the last failure
    /// until a post goes through): why it failed, or nil once posted.
    package func postNoting(
        _ announcement: Announcement, on platform: ChatPlatform, database: AppDatabase, logger: Logger
    ) async -> String? {
        let failure = await tryPost(announcement, on: platform)?.plainText
        if let community = announcement.community {
            do {
                try await database.social.noteAnnouncement(
                    in: community, channel: announcement.channel, failure: failure, at: Date())
            } catch {
                logger.warning("could not note how an announcement went", metadata: ["error": "\(error)"])
            }
        }
        return failure
    }

    /// Posts in the background, after the command's reply (`postNoting`); a failure is logged too.
    package func postInBackground(
        _ announcement: Announcement, on platform: ChatPlatform, database: AppDatabase, logger: Logger
    ) {
        Task.detached(priority: .utility) {
            guard let failure = await postNoting(announcement, on: platform, database: database, logger: logger)
            else { return }
            logger.warning(
                "announcement failed", metadata: ["channel": "\(announcement.channel)", "error": "\(failure)"])
        }
    }

    /// Discord's JSON error codes: https://discord.com/developers/docs/topics/opcodes-and-status-codes
    static func discordReason(_ code: Int?) -> RichText {
        switch code {
        case 10003: "Discord knows no such channel."
        case 50001:
            "it cannot see that channel. Give the bot View Channel there (the channel's permissions), then set it again."
        case 50013:
            "it lacks a permission there. Give the bot Send Messages and Embed Links in that channel, then set it again."
        case 50008, 40058: "that is not a text channel. Pick a text channel."
        case 40001, 50014: "Discord refused the bot's token; the operator checks DISCORD_BOT_TOKEN."
        default: "Discord refused the post\(code.map { " (code \($0))" } ?? ""); try again in a moment."
        }
    }

    /// Slack's errors of `chat.postMessage`: https://api.slack.com/methods/chat.postMessage
    static func slackReason(_ error: String?) -> RichText {
        switch error {
        case "not_in_channel":
            "the app is not a member of it. Add it there (\(code: "/invite"), then the app's name), then set it again."
        case "channel_not_found":
            "Slack finds no channel of that id the app can see; for a private channel, add the app to it first."
        case "is_archived": "the channel is archived."
        case "restricted_action", "restricted_action_read_only_channel", "restricted_action_thread_only_channel":
            "the workspace lets only some members post there."
        case "missing_scope":
            "the app's token lacks the scope chat:write; the operator adds it (OAuth & Permissions) and reinstalls the app."
        case let error? where SlackAPIError.refusedToken.contains(error):
            "Slack refused the app's token; the operator checks SLACK_BOT_TOKEN."
        case "ratelimited": "Slack asks the app to slow down; try again in a minute."
        default: "Slack refused the post\(error.map { " (\($0))" } ?? ""); try again in a moment."
        }
    }
}
