import AsyncHTTPClient
import Foundation
import GGTrackerCore
import Logging
import NIOCore
import NIOHTTP1

/// Posts announcements to a server's channel through Discord's REST API
/// (`POST {DISCORD_API_BASE}/channels/{channel.id}/messages` with the bot token), after the reply has gone out.
/// A 429 is retried after the `retry_after` Discord gives, a few times at most.
package struct DiscordAnnouncer: Sendable {
    package var apiBase: String
    package var botToken: String
    package var client: HTTPClient
    package var maxAttempts = 4

    package init(apiBase: String, botToken: String, client: HTTPClient = .shared) {
        self.apiBase = apiBase
        self.botToken = botToken
        self.client = client
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// The HTTP status Discord answered, and its JSON error code when it gave one (50001: the bot cannot see
        /// the channel).
        package var status: Int? = nil
        package var code: Int? = nil
    }

    /// Discord's error body: `{"message": "Missing Access", "code": 50001}`.
    struct ErrorBody: Decodable {
        var code: Int
    }

    /// Sends the cards as one message; returns the HTTP status of the last attempt.
    @discardableResult
    package func post(_ announcement: Announcement) async throws -> Int {
        // The channel id goes into a URL path: only a snowflake is ever put there.
        guard ChatPlatform.discord.isChannelID(announcement.channel) else {
            throw Failure(description: "the announce channel “\(announcement.channel)” is not a Discord channel id")
        }
        let message = Reply(text: announcement.text, cards: announcement.cards).discordMessage { _ in "" }
        var stripped = message
        stripped.components = nil  // buttons would run as whoever presses them; the channel post is news only
        if !announcement.pinging.isEmpty { stripped.allowedMentions.users = Array(announcement.pinging.prefix(100)) }
        let body = try JSONEncoder().encode(stripped)
        for attempt in 1...maxAttempts {
            var request = HTTPClientRequest(url: "\(apiBase)/channels/\(announcement.channel)/messages")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bot \(botToken)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(
                name: "User-Agent", value: "DiscordBot (https://github.com/ggtracker, \(AppServices.version))")
            request.body = .bytes(ByteBuffer(data: body))
            let response = try await client.execute(request, timeout: .seconds(10))
            let answer = try await response.body.collect(upTo: 1 << 20)
            if response.status == .tooManyRequests, attempt < maxAttempts {
                let limit = try? JSONDecoder().decode(DiscordRateLimit.self, from: Data(buffer: answer))
                let seconds =
                    limit?.retryAfter ?? response.headers.first(name: "Retry-After").flatMap(Double.init) ?? 1
                try await Task.sleep(for: .milliseconds(Int(min(max(seconds, 0), 30) * 1000)))
                continue
            }
            guard (200..<300).contains(Int(response.status.code)) else {
                throw Failure(
                    description: "Discord answered \(response.status.code): \(String(buffer: answer).prefix(300))",
                    status: Int(response.status.code),
                    code: (try? JSONDecoder().decode(ErrorBody.self, from: Data(buffer: answer)))?.code)
            }
            return Int(response.status.code)
        }
        throw Failure(description: "still rate limited after \(maxAttempts) attempts")
    }
}

/// Discord's answer to a request over a rate limit (429): how many seconds to wait.
/// https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit
struct DiscordRateLimit: Decodable {
    var retryAfter: Double

    enum CodingKeys: String, CodingKey { case retryAfter = "retry_after" }
}
