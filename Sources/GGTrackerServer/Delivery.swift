import Foundation
import GGTrackerCore
import GGTrackerStorage

/// What running a command for one delivery came to.
enum DeliveryAnswer {
    /// The command ran (or refused) and this is its reply.
    case reply(Reply)
    /// An earlier attempt of the same delivery applied its change; `stored` is the answer it kept, if any yet.
    case alreadyApplied(stored: Data?)

    /// The reply, or nil when an earlier attempt applied it.
    var reply: Reply? {
        if case .reply(let reply) = self { return reply }
        return nil
    }
}

extension GGTrackerBot {
    /// Runs a command on behalf of one delivery (a Discord interaction, a Matrix event, a Slack request), with a
    /// store that claims the delivery's id in every write's own transaction, so the change and the record that it
    /// was made commit together. A delivery already applied (its change committed) or already answered is not
    /// run again.
    func respondOnce(
        _ claim: DeliveryClaim, database: AppDatabase, _ work: (GGTrackerBot) async throws -> Reply
    ) async throws -> DeliveryAnswer {
        var bot = self
        bot.store = database.claiming(claim).stores
        do {
            return .reply(try await work(bot))
        } catch is DeliveryAlreadyApplied {
            return .alreadyApplied(stored: nil)
        } catch let answered as DeliveryAnswered {
            return .alreadyApplied(stored: answered.response)
        }
    }
}

extension Reply {
    /// The answer to a command that failed on our side.
    static func failure(_ error: any Error) -> Reply {
        if error is PostgresUnavailable {
            return .notice(
                "The database did not answer, so this could not be done. Please try again in a moment.")
        }
        return .notice("Something went wrong on our side and nothing was changed. Please try again.")
    }

    /// The answer to a retry whose change an earlier attempt committed before its answer was lost.
    static let alreadyApplied = Reply.notice(
        "This request was already carried out, and nothing was applied twice. `/list` shows where things stand.")
}
