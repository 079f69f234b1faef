import Foundation
import GGTrackerCore
import Logging

extension SlackController {
    /// The answer to a slash command or a button while the command is still busy at Slack's deadline (an import, a
    /// catalog provider's lookup): shown only to whoever asked, until the answer follows.
    static let busy = Reply.notice("⏳ Working on it: the answer follows here in a moment.")

    /// Runs `work` (a command through the delivery pipeline, its answer rendered as a Slack message) and gives its
    /// answer while Slack still waits for one (3 seconds): a command still busy at `config.deferAfter` is answered
    /// `nil`, and its message is posted to `responseURL` once it is ready. A failure becomes an answer the person
    /// sees, on either path.
    func withinDeadline(
        responseURL: String?, command: String, logger: Logger, _ work: @escaping @Sendable () async throws -> Handled
    ) async -> Handled? {
        let race = FirstAnswer()
        let task = Task {
            let handled: Handled
            do {
                handled = try await work()
            } catch {
                logger.error("command failed", metadata: ["error": "\(error)", "command": .string(command)])
                handled = Handled(
                    data: (try? JSONEncoder().encode(Reply.failure(error).slackMessage())) ?? Data(), command: command,
                    outcome: .error)
            }
            race.offer(handled)
            return handled
        }
        guard let responseURL else { return await task.value }
        let first = await race.first(deadline: config.deferAfter)
        guard first.outcome == .deferred else { return first }
        Task.detached {
            let handled = await task.value
            guard !handled.data.isEmpty else { return }
            do {
                try await post(handled.data, to: responseURL)
            } catch {
                logger.warning("could not post a Slack answer that followed", metadata: ["error": "\(error)"])
            }
        }
        return nil
    }

    /// What a delivery came to; its announcement, if any, posted once it is stored. A replay is answered nothing
    /// (`unauthorized`). The caller records the outcome it answers with (`deferred` for one still busy, as on
    /// Discord).
    func handled(_ delivered: Delivered, of command: Delivery, logger: Logger) -> Handled {
        switch delivered {
        case .retried:
            return Handled(data: Data(), command: command.command, outcome: .unauthorized)
        case .answered(let data, let reply, let outcome):
            announce(reply, logger: logger)
            return Handled(data: data, command: command.command, outcome: outcome)
        }
    }

    /// A `response_url` this bot posts to: under `SLACK_RESPONSE_BASE` only (a signed request could name any).
    func responseURL(_ url: String?, logger: Logger) -> String? {
        guard let url else { return nil }
        guard url.hasPrefix(config.slackResponseBase) else {
            logger.warning("a Slack response_url outside SLACK_RESPONSE_BASE was not posted to")
            return nil
        }
        return url
    }
}
