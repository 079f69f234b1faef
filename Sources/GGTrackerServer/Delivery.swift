import Foundation
import GGTrackerCore
import GGTrackerStorage
import Logging

/// One command delivered by a platform (a Discord interaction, a Matrix event, a Slack request), once its
/// signature or token checked out: the id its retries share, the platform whose rules apply, and the command's name
/// for metrics and logs.
struct Delivery: Sendable {
    enum Platform: String, Sendable {
        case discord, matrix, slack
    }

    let id: String
    let platform: Platform
    let command: String
    let started: ContinuousClock.Instant
    /// Another id its change records as made (`DeliveryClaim.marks`): the message a Matrix edit replaces.
    var marks: String?

    init(id: String, platform: Platform, command: String, started: ContinuousClock.Instant = .now) {
        self.id = id
        self.platform = platform
        self.command = command
        self.started = started
    }
}

extension Delivery.Platform {
    /// What is kept of an answer for the platform's retries.
    enum Keeping: Sendable {
        /// The answer to a command that changed something; a retry of a read is simply read again (Discord).
        case answersToChanges
        /// Every answer, so one rendered but never sent is sent as it was (Matrix).
        case everyAnswer
        /// Only that the delivery was seen: the platform never retries a signed request, so a replay is refused
        /// (Slack).
        case seen
    }

    var keeping: Keeping {
        switch self {
        case .discord: .answersToChanges
        case .matrix: .everyAnswer
        case .slack: .seen
        }
    }

    /// Whether a failure the database may get over is left to the platform's own retry instead of answered: the
    /// homeserver sends a transaction again until it is acknowledged.
    var retriesTransientFailures: Bool { self == .matrix }
}

/// What a delivery came to.
enum Delivered {
    /// Run now: the rendered answer (kept as the platform's rule says), the reply and the outcome.
    case answered(Data, Reply, Outcome)
    /// A retry of a delivery already applied: the answer kept for it, or nil where retries are refused.
    case retried(Data?)
}

/// What running a command for one delivery came to.
enum DeliveryAnswer {
    /// The command ran (or refused) and this is its reply.
    case reply(Reply)
    /// An earlier attempt of the same delivery applied its change; `stored` is the answer it kept, if any yet.
    case alreadyApplied(stored: Data?)
}

/// The one path every platform's command takes: claim → run → render → keep, with the outcome for metrics.
/// Platforms differ only in their `Delivery.Platform` rules and in how they render and send the answer.
struct DeliveryPipeline: Sendable {
    let bot: GGTrackerBot
    let database: AppDatabase
    let metrics: RequestMetrics

    /// Runs the command once for the delivery and renders its answer. A user's mistake is answered as a notice; a
    /// failure on our side is answered too (nothing was committed), except a passing one on a platform that retries
    /// by itself, which is thrown. A retry of a delivery already applied is not run again. On PostgreSQL the
    /// command's change is held in its transaction and committed with its answer; when that transaction loses to a
    /// concurrent change (nothing of it committed), the command is run again from the start with its change on its
    /// own, which reads what it changes just before and retries by itself: a second race on the same entry is then
    /// less likely.
    func deliver(
        _ delivery: Delivery, logger: Logger, run: (GGTrackerBot) async throws -> Reply,
        render: (Reply) async throws -> Data
    ) async throws -> Delivered {
        var attempt = 1
        while true {
            do {
                return try await deliver(
                    delivery, holdingChanges: attempt < Self.attemptsHoldingChanges, logger: logger, run: run,
                    render: render)
            } catch is CommandConflict {
                attempt += 1
                try await Task.sleep(for: .microseconds(Int.random(in: 0...(500 << min(attempt, 5)))))
            }
        }
    }

    /// How many times a command runs with its change held before it runs with its change on its own.
    static let attemptsHoldingChanges = 2

    private func deliver(
        _ delivery: Delivery, holdingChanges: Bool, logger: Logger, run: (GGTrackerBot) async throws -> Reply,
        render: (Reply) async throws -> Data
    ) async throws -> Delivered {
        let claim = DeliveryClaim(id: delivery.id, marks: delivery.marks)
        let database = self.database.claiming(claim, holdingChanges: holdingChanges)
        defer { database.endReads() }
        let reply: Reply
        var failed = false
        do {
            switch try await bot.respondOnce(claim, database: database, run) {
            case .reply(let answer): reply = answer
            case .alreadyApplied(let stored): return try await retried(delivery, stored: stored, render: render)
            }
        } catch let error as UsageError {
            reply = .notice(error.message)
        } catch let conflict as CommandConflict {
            throw conflict
        } catch {
            if delivery.platform.retriesTransientFailures && DeliveryRecords.isTransient(error) { throw error }
            logger.error("command failed", metadata: ["error": "\(error)", "command": .string(delivery.command)])
            // A change still held is rolled back: nothing of the command is committed.
            database.endReads()
            reply = claim.committedSomething ? .failureAfterChange : .failure(error)
            failed = true
        }
        let data = try await render(reply)
        // A failure is not kept where a retry may run the command again and succeed: whether a change whose
        // commit was cut off was applied is not known, and the retry finds out.
        if !failed || delivery.platform.keeping == .everyAnswer {
            let held = database.holdsChange
            do {
                try await keep(data, of: delivery, claim: claim, in: database)
            } catch let error where held {
                // The change was held for this answer, and neither was committed.
                if error is CommandConflict { throw error }
                if error is DeliveryAlreadyApplied { return try await retried(delivery, stored: nil, render: render) }
                if delivery.platform.retriesTransientFailures && DeliveryRecords.isTransient(error) { throw error }
                logger.error("command failed", metadata: ["error": "\(error)", "command": .string(delivery.command)])
                return .answered(try await render(.failure(error)), .failure(error), .error)
            } catch {
                if delivery.platform.retriesTransientFailures { throw error }
                // The change (if any) is committed and the user is answered; only a retry would run it again.
                logger.error(
                    "could not keep an answer for retries",
                    metadata: ["error": "\(error)", "command": .string(delivery.command)])
            }
        }
        let outcome: Outcome = failed ? .error : reply.visibility == .invokerOnly ? .private : .ok
        return .answered(data, reply, outcome)
    }

    /// Keeps what the platform's rule says of an answer, through the command's own database, which commits a change
    /// held for it together with it. The answer to a change is stored only where this attempt owns the delivery, so
    /// an attempt that lost the claim to another never replaces the real answer.
    func keep(_ data: Data, of delivery: Delivery, claim: DeliveryClaim, in database: AppDatabase) async throws {
        let changed = claim.changedSomething ? claim : nil
        switch delivery.platform.keeping {
        case .answersToChanges:
            guard let changed else { return }
            try await database.deliveries.recordProcessed(delivery.id, response: data, claim: changed)
        case .everyAnswer:
            try await database.deliveries.recordProcessed(delivery.id, response: data, claim: changed)
        case .seen:
            try await database.deliveries.recordProcessed(delivery.id, response: Data(), claim: changed)
        }
    }

    /// The answer to a retry: the one kept for the delivery; while another attempt (a replica given the same
    /// delivery at once) has not stored its own yet, that one once stored; if that attempt died, the notice that
    /// the change was already made, kept so every later retry is answered the same.
    func retried(
        _ delivery: Delivery, stored: Data?, render: (Reply) async throws -> Data
    ) async throws -> Delivered {
        if delivery.platform.keeping == .seen { return .retried(nil) }
        if let stored, !stored.isEmpty { return .retried(stored) }
        if let stored = try await storedAnswer(delivery.id) { return .retried(stored) }
        let data = try await render(.alreadyApplied)
        try? await database.deliveries.recordAnswerIfNone(delivery.id, response: data)
        return .retried(try await database.deliveries.processedResponse(delivery.id) ?? data)
    }

    /// The answer another attempt of the same delivery stored, waiting a little for it to be written.
    func storedAnswer(_ id: String) async throws -> Data? {
        for _ in 0..<10 {
            if let stored = try await database.deliveries.processedResponse(id), !stored.isEmpty { return stored }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Counts the delivery under its platform, command and outcome, with its time since it arrived.
    func record(_ delivery: Delivery, _ outcome: Outcome, logger: Logger) {
        metrics.record(
            platform: delivery.platform.rawValue, command: delivery.command, outcome: outcome,
            started: delivery.started, logger: logger)
    }
}

extension GGTrackerBot {
    /// Runs a command on behalf of one delivery, through the delivery's own view of the database
    /// (`AppDatabase.claiming`), which claims the delivery's id in the transaction of every change, so the change
    /// and the record that it was made commit together. A delivery already applied (its change committed) or
    /// already answered is not run again.
    func respondOnce(
        _ claim: DeliveryClaim, database: AppDatabase, _ work: (GGTrackerBot) async throws -> Reply
    ) async throws -> DeliveryAnswer {
        var bot = self
        bot.store = database.stores
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

    /// The answer to a command that failed on our side after its change was committed.
    static let failureAfterChange = Reply.notice(
        "Your change was saved, but something went wrong on our side before the answer was ready. `/list` shows where things stand."
    )

    /// The answer to an edited command whose first version already changed something.
    static let editNotRun = Reply.notice(
        "That command was carried out when you sent it, so your edit was not run: it could apply the change twice. Send the changed command as a new message."
    )

    /// The answer to a retry whose change an earlier attempt committed before its answer was lost.
    static let alreadyApplied = Reply.notice(
        "This request was already carried out, and nothing was applied twice. `/list` shows where things stand.")
}
