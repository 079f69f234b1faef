import Foundation
import GGTrackerCore
import GRDB
import Synchronization

/// The delivery (a Discord interaction, a Matrix event, a Slack request) whose command is being run.
/// A write made on its behalf claims its id in the same transaction as the change, so a retry of a
/// delivery whose change was committed is recognised even when the process died before answering.
package struct DeliveryClaim: Sendable {
    package let id: String
    /// Distinguishes this attempt from an earlier one of the same delivery.
    package let attempt: String
    /// Another id its change records as made, in the same transaction: the message a Matrix edit replaces, so that
    /// no later edit of it runs again.
    package let marks: String?
    private let wrote = OnceFlag()

    package init(id: String, marks: String? = nil) {
        self.id = id
        self.marks = marks
        self.attempt = Self.nextAttempt()
    }

    /// An attempt's id: a random part drawn once for the process, which no other process (another replica, this
    /// one restarted) shares, and the count of this process's attempts. Random bytes drawn for each attempt were two
    /// calls to the system per request, for the reads that never claim anything as much as for the writes.
    static func nextAttempt() -> String {
        processPart + String(attempts.wrappingAdd(1, ordering: .relaxed).newValue, radix: 16)
    }
    private static let processPart = randomHex(bytes: 12) + "-"
    private static let attempts = Atomic<UInt64>(0)

    /// Whether a write was made on behalf of this delivery (its id is claimed in the database).
    package var changedSomething: Bool { wrote.isRaised }
    func markWritten() { wrote.raise() }

    /// Whether a write made on behalf of this delivery was committed: a failure after it cannot say that nothing
    /// was changed.
    package var committedSomething: Bool { committed.isRaised }
    func markCommitted() { committed.raise() }
    private let committed = OnceFlag()
}

/// A retried delivery whose change was already committed by an earlier attempt: nothing is applied again.
package struct DeliveryAlreadyApplied: Error, Sendable {
    package let id: String
}

/// A command's change, held in its transaction for its answer, was rolled back before its commit for a passing
/// reason (a concurrent change to the same rows, a connection lost): nothing of it was committed, and the command
/// is to be run again from the start.
package struct CommandConflict: Error, Sendable {}

/// A retried delivery that was answered before: its stored answer is given again, and nothing is run.
package struct DeliveryAnswered: Error, Sendable {
    package let id: String
    package let response: Data
}

extension DeliveryRecords {
    /// How long delivery ids are remembered: platforms retry within minutes, never after a day.
    package static let deliveryRetention: TimeInterval = 86_400
    /// How long the command behind a long button is kept.
    package static let pendingCommandRetention: TimeInterval = 30 * 86_400

    /// Claims the delivery in the transaction: the row is inserted unless one exists, and its owner read back,
    /// both sent without waiting. `confirm()` tells whether this attempt owns it.
    static func claim(
        _ claim: DeliveryClaim, in db: any SQLSession, at now: Date = Date()
    ) async throws -> PendingClaim {
        try await db.send(
            "INSERT INTO processed_interactions (id, attempt, response, created_at) VALUES (?, ?, NULL, ?) ON CONFLICT DO NOTHING",
            [claim.id, claim.attempt, now.timeIntervalSince1970])
        try await mark(claim, in: db, at: now)
        let owner = try await db.prefetch("SELECT attempt FROM processed_interactions WHERE id = ?", [claim.id])
        return PendingClaim(claim: claim, owner: owner)
    }

    /// Records the claim's other id (`DeliveryClaim.marks`) as changed, once.
    private static func mark(_ claim: DeliveryClaim, in db: any SQLSession, at now: Date) async throws {
        guard let marks = claim.marks else { return }
        try await db.send(
            "INSERT INTO processed_interactions (id, attempt, response, created_at) VALUES (?, ?, NULL, ?) ON CONFLICT DO NOTHING",
            [marks, claim.attempt, now.timeIntervalSince1970])
    }

    /// Claims the delivery in a transaction that holds the command's change until its answer is stored with it:
    /// sent without waiting, and refused by the database (a unique key) when another attempt owns the delivery,
    /// which fails the whole transaction, its commit included.
    static func claimHeld(_ claim: DeliveryClaim, in db: any SQLSession, at now: Date = Date()) async throws {
        try await db.send(
            "INSERT INTO processed_interactions (id, attempt, response, created_at) VALUES (?, ?, NULL, ?)",
            [claim.id, claim.attempt, now.timeIntervalSince1970])
        try await mark(claim, in: db, at: now)
    }

    /// A claim sent, its owner not yet looked at.
    struct PendingClaim {
        let claim: DeliveryClaim
        let owner: SQLPending

        /// Throws `DeliveryAlreadyApplied` when another attempt (a retry, or a replica given the same delivery)
        /// owns the delivery: nothing of this one's may be committed.
        func confirm() async throws {
            guard try await owner.value() as String? == claim.attempt else {
                throw DeliveryAlreadyApplied(id: claim.id)
            }
            claim.markWritten()
        }
    }

    /// Whether a delivery with this id was seen before (claimed by a change, or answered).
    package func deliverySeen(_ id: String) async throws -> Bool {
        try await read { db in
            try await (db.value("SELECT 1 FROM processed_interactions WHERE id = ?", [id]) as Bool?) ?? false
        }
    }

    /// Whether a change was made on behalf of the delivery (claimed by it), or marked as made by another
    /// (`DeliveryClaim.marks`).
    package func changeMade(by id: String, orMarked mark: String) async throws -> Bool {
        try await read { db in
            try await
                (db.value(
                    "SELECT 1 FROM processed_interactions WHERE attempt IS NOT NULL AND (id = ? OR id = ?)", [id, mark])
                as Bool?) ?? false
        }
    }

    /// The response already given to a delivery with this id (Discord interaction id, Matrix transaction id…).
    package func processedResponse(_ id: String) async throws -> Data? {
        try await read { db in
            try await (db.value("SELECT response FROM processed_interactions WHERE id = ?", [id]) as Data?)
        }
    }

    /// Remembers the response given to a delivery, so a retry is answered the same and applied once. With the
    /// claim that made the change, the response is stored only where that attempt owns the delivery: an attempt
    /// that lost the claim to another (a replica given the same delivery) never replaces the real answer. Without
    /// one, the delivery is only marked as seen; an answer already stored stays.
    package func recordProcessed(
        _ id: String, response: Data, claim: DeliveryClaim? = nil, at now: Date = Date()
    ) async throws {
        if let claim {
            // The change held for this answer, committed with it (see `AppDatabase.claiming`).
            let kept = try await executor.commitHeld { db in
                try await db.send(
                    "UPDATE processed_interactions SET response = ? WHERE id = ? AND attempt = ?",
                    [response, id, claim.attempt])
            }
            if kept { return }
        }
        try await write { db in
            if let claim {
                // Sent with the commit: one round trip.
                try await db.send(
                    "UPDATE processed_interactions SET response = ? WHERE id = ? AND attempt = ?",
                    [response, id, claim.attempt])
            } else {
                try await db.execute(
                    "INSERT INTO processed_interactions (id, response, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
                    [id, response, now.timeIntervalSince1970])
            }
        }
    }

    /// Stores an answer for a delivery claimed by an attempt that never stored one (it died, or is slow): only
    /// while none is stored, so the owner's real answer, when it comes, still replaces it.
    package func recordAnswerIfNone(_ id: String, response: Data) async throws {
        try await write { db in
            try await db.execute(
                "UPDATE processed_interactions SET response = ? WHERE id = ? AND response IS NULL", [response, id])
        }
    }

    /// Forgets delivery ids older than a day and long-button commands older than 30 days; returns how
    /// many rows went.
    @discardableResult
    package func prune(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.execute(
                "DELETE FROM processed_interactions WHERE created_at < ?",
                [now.timeIntervalSince1970 - Self.deliveryRetention])
            var removed = db.changesCount
            try await db.execute(
                "DELETE FROM pending_commands WHERE created_at < ?",
                [now.timeIntervalSince1970 - Self.pendingCommandRetention])
            removed += db.changesCount
            return removed
        }
    }

    /// Stores a command line too long for a button id; returns the short key that stands for it.
    package func savePendingCommand(_ command: String, at now: Date = Date()) async throws -> String {
        let key = randomHex(bytes: 12)
        try await write { db in
            try await db.execute(
                "INSERT INTO pending_commands (id, command, created_at) VALUES (?, ?, ?)",
                [key, command, now.timeIntervalSince1970])
        }
        return key
    }

    package func pendingCommand(_ key: String) async throws -> String? {
        try await read { db in
            try await (db.value("SELECT command FROM pending_commands WHERE id = ?", [key]) as String?)
        }
    }
}

extension DeliveryRecords {
    /// Whether an error is the database's passing state (busy, full, read-only, unreachable) rather than
    /// something wrong with the request: work that failed this way may succeed when tried again.
    package static func isTransient(_ error: any Error) -> Bool {
        if error is PostgresUnavailable { return true }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN,
                .SQLITE_PROTOCOL, .SQLITE_NOMEM:
                return true
            default: return false
            }
        }
        return false
    }
}
