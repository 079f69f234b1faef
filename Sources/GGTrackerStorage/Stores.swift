import Foundation
import GGTrackerCore

/// A store of one area (a player's library, the social side, the catalog, deliveries, leases): the SQL of that
/// area, run as transactions on the database's one executor.
protocol SQLStore: Sendable {
    var executor: DatabaseExecutor { get }
}

extension SQLStore {
    var dialect: SQLDialect { executor.dialect }
    var isPostgres: Bool { executor.dialect == .postgres }

    /// Reads in one snapshot.
    func read<T>(_ body: (any SQLSession) async throws -> T) async throws -> T { try await executor.read(body) }

    /// One write transaction.
    @discardableResult
    func write<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await executor.write(body)
    }
}

/// A store a command writes through: each write with an effect claims the command's delivery.
protocol ClaimingStore: SQLStore {
    /// The delivery on whose behalf this store writes (see `AppDatabase.claiming(_:)`).
    var claim: DeliveryClaim? { get }
}

extension ClaimingStore {
    /// A write with an effect a user asked for: claims the delivery, if any, in the same transaction.
    /// The claim is sent first and its owner read back without waiting; the body's statements follow, and the
    /// owner is checked before the commit (or before the body's own error is reported): a delivery another attempt
    /// owns rolls everything back as `DeliveryAlreadyApplied`. Once committed, the claim says so. Where the command
    /// holds its change for its answer (PostgreSQL, a delivery's command), it is made in the command's transaction
    /// and committed with the answer instead (`PostgresReadScope.hold(_:_:)`).
    func effect<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let claim = self.claim
        if let claim, let held = try await executor.hold(claim, body) { return held }
        let result = try await write { db in
            guard let claim else { return try await body(db) }
            let owner = try await DeliveryRecords.claim(claim, in: db)
            let result: T
            do {
                result = try await body(db)
            } catch {
                try await owner.confirm()
                throw error
            }
            try await owner.confirm()
            return result
        }
        claim?.markCommitted()
        return result
    }
}

/// Players, their libraries and wishlists, server settings.
package struct LibraryRecords: ClaimingStore {
    let executor: DatabaseExecutor
    /// Players recorded lately, so a command does not write just to say they were seen.
    let recentlySeen: RecentlySeen
    let claim: DeliveryClaim?
}

/// Friends, the activity log, comparisons, leaderboards, challenges and medals, share links.
package struct SocialRecords: ClaimingStore {
    let executor: DatabaseExecutor
    let claim: DeliveryClaim?
}

/// The catalog: games and their facets.
package struct CatalogRecords: SQLStore {
    let executor: DatabaseExecutor
}

/// Deliveries seen and answered, and commands kept for long buttons.
package struct DeliveryRecords: SQLStore {
    let executor: DatabaseExecutor
}

/// Leases (who refreshes the catalog) and shared request budgets.
package struct LeaseRecords: SQLStore {
    let executor: DatabaseExecutor
}
