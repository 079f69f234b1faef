import AsyncHTTPClient
import Foundation
import GGTrackerCore
import Logging
import NIOCore

/// What the Slack Web API's errors mean for this app, wherever it calls the API.
/// https://api.slack.com/web#slack-web-api__evaluating-responses
enum SlackAPIError {
    /// The errors that say the app's bot token was refused (not a missing scope: that names the scope).
    static let refusedToken: Set<String> = [
        "not_authed", "invalid_auth", "token_revoked", "token_expired", "account_inactive",
    ]
}

/// Posts announcements (completions, reviews, medals, release alerts) to a Slack workspace's announce channel with
/// the Web API's `chat.postMessage` and the app's bot token (scope `chat:write`). A member named in the words
/// (`<@U…>`) is notified. https://api.slack.com/methods/chat.postMessage
package struct SlackAnnouncer: Sendable {
    package var apiBase: String
    package var token: String
    package var http: HTTPClient = .shared
    package var maxAttempts = 4

    package init(apiBase: String, token: String) {
        self.apiBase = apiBase
        self.token = token
    }

    struct Post: Encodable {
        var channel: String
        var text: String
        var blocks: [SlackBlock]
        /// The bot's links (store pages) are not unfurled under each announcement.
        var unfurlLinks = false

        enum CodingKeys: String, CodingKey {
            case channel, text, blocks
            case unfurlLinks = "unfurl_links"
        }
    }

    struct Answer: Decodable {
        var ok: Bool
        var error: String?
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Slack's error, when it answered with one (`not_in_channel`).
        package var error: String? = nil
    }

    /// Posts the announcement. Slack answers a burst over its rate limit (about one message a second per channel)
    /// with 429 and `Retry-After` seconds: the post waits that long and tries again, a few times at most.
    package func post(_ announcement: Announcement) async throws {
        let message = Reply(text: announcement.text, cards: announcement.cards).slackMessage()
        let body = try JSONEncoder().encode(
            Post(channel: announcement.channel, text: message.text, blocks: message.blocks))
        for attempt in 1...maxAttempts {
            var request = HTTPClientRequest(url: apiBase + "/chat.postMessage")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(data: body))
            let response = try await http.execute(request, timeout: .seconds(10))
            let answered = try await response.body.collect(upTo: 1 << 20)
            if response.status == .tooManyRequests, attempt < maxAttempts {
                let seconds = response.headers.first(name: "Retry-After").flatMap(Double.init) ?? 1
                try await Task.sleep(for: .milliseconds(Int(min(max(seconds, 0), 30) * 1000)))
                continue
            }
            guard response.status.code == 200 else {
                throw Failure(
                    description: "chat.postMessage answered \(response.status.code)",
                    error: response.status == .tooManyRequests ? "ratelimited" : nil)
            }
            let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: answered))
            guard answer?.ok == true else {
                throw Failure(
                    description: "chat.postMessage refused: \(answer?.error ?? "an unreadable answer")",
                    error: answer?.error)
            }
            return
        }
    }
}
