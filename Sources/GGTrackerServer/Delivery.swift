import GGTrackerCore
import GGTrackerStorage

extension GGTrackerBot {
    /// Runs a command on behalf of one delivery (a Discord interaction, a Matrix event, a Slack request), with a
    /// store that claims the delivery's id in every write's own transaction, so the change and the record that it
    /// was made commit together. Nil when an earlier attempt of the same delivery already applied it.
    func respondOnce(
        _ id: String, database: AppDatabase, _ work: (GGTrackerBot) async throws -> Reply
    ) async throws -> Reply? {
        try await respondOnce(DeliveryClaim(id: id), database: database, work)
    }

    /// The same, with the claim given, so the caller can tell whether anything was written for it.
    func respondOnce(
        _ claim: DeliveryClaim, database: AppDatabase, _ work: (GGTrackerBot) async throws -> Reply
    ) async throws -> Reply? {
        var bot = self
        bot.store = database.claiming(claim).stores
        do {
            return try await work(bot)
        } catch is DeliveryAlreadyApplied {
            return nil
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
