import Foundation
import GGTrackerCore
import GGTrackerStorage

/// Pulls games from IGDB into the local catalog: those updated since the stored checkpoint (incremental) or all
/// (full), 500 per request in id order. Each page is upserted in one transaction together with how far the run
/// got, so a refresh killed half-way resumes after the last stored page and loses nothing; the checkpoint moves
/// only when the run completes.
package struct IGDBRefresh: Sendable {
    package var client: IGDBClient
    package var database: AppDatabase
    package static let pageSize = 500

    package init(client: IGDBClient, database: AppDatabase) {
        self.client = client
        self.database = database
    }

    enum Key {
        static let checkpoint = "igdb.checkpoint"
        static let since = "igdb.run.since"
        static let afterID = "igdb.run.after_id"
        static let maxUpdated = "igdb.run.max_updated"
        static let added = "igdb.run.added"
        static let updated = "igdb.run.updated"
    }

    /// A refresh asked to stop (the server is shutting down) after the page it was storing; the next one resumes.
    package struct Interrupted: Error, CustomStringConvertible {
        package var description: String { "the refresh stopped for shutdown; the next one resumes where it left off" }
    }

    package func run(
        full: Bool, progress: @Sendable (RefreshProgress) -> Void = { _ in },
        shouldStop: @Sendable () -> Bool = { false }
    ) async throws -> RefreshSummary {
        let started = Date()
        var since: Int
        var afterID: Int
        var maxUpdated: Int
        var added = 0
        var updated = 0
        if let resumeSince = try await database.catalogState.value(Key.since).flatMap(Int.init),
            let resumeAfter = try await database.catalogState.value(Key.afterID).flatMap(Int.init)
        {
            // An interrupted run: carry on after the last page it stored.
            since = resumeSince
            afterID = resumeAfter
            maxUpdated = try await database.catalogState.value(Key.maxUpdated).flatMap(Int.init) ?? since
            added = try await database.catalogState.value(Key.added).flatMap(Int.init) ?? 0
            updated = try await database.catalogState.value(Key.updated).flatMap(Int.init) ?? 0
        } else {
            since = await full ? 0 : (try database.catalogState.value(Key.checkpoint).flatMap(Int.init) ?? 0)
            afterID = 0
            maxUpdated = since
            try await database.catalogState.set(Key.since, String(since))
            try await database.catalogState.set(Key.afterID, "0")
        }
        let filter = "updated_at > \(since)"
        let total = try await client.count("games", "where \(filter);")
        var done = 0
        var skipped = 0
        progress(RefreshProgress(done: 0, total: total, elapsed: 0))
        while true {
            let rows = await client.withTimesToBeat(
                try await client.query(
                    "games",
                    "fields \(IGDBClient.gameFields); where \(filter) & id > \(afterID); sort id asc; limit \(Self.pageSize);"
                ))
            guard !rows.isEmpty else { break }
            var records: [CatalogRecord] = []
            for row in rows {
                if let id = IGDBGameMapping.int(row["id"]) { afterID = max(afterID, id) }
                if let stamp = IGDBGameMapping.int(row["updated_at"]) { maxUpdated = max(maxUpdated, stamp) }
                do { records.append(try IGDBGameMapping.record(from: row)) } catch { skipped += 1 }
            }
            // The page and how far the run got commit together.
            let (addedSoFar, updatedSoFar, lastID, newest) = (added, updated, afterID, maxUpdated)
            let counts = try await database.catalog.upsertGames(records) { counts -> [String: String] in
                [
                    Key.afterID: String(lastID), Key.maxUpdated: String(newest),
                    Key.added: String(addedSoFar + counts.added), Key.updated: String(updatedSoFar + counts.updated),
                ]
            }
            added += counts.added
            updated += counts.updated
            done += rows.count
            progress(RefreshProgress(done: done, total: total, elapsed: Date().timeIntervalSince(started)))
            if rows.count < Self.pageSize { break }
            if shouldStop() { throw Interrupted() }
        }
        try await database.catalogState.set(Key.checkpoint, String(maxUpdated))
        try await database.catalogState.set("last_refresh", String(Date().timeIntervalSince1970))
        try await database.catalogState.delete(prefix: "igdb.run.")
        return RefreshSummary(
            added: added, updated: updated, skipped: skipped, duration: Date().timeIntervalSince(started))
    }
}
