import Foundation
import GRDB

extension AppDatabase {
    /// Takes the named lease for `holder` until `now + duration` when it is free, expired, or already the
    /// holder's (then it is renewed). False when another holder has it.
    package func acquireLease(_ name: String, holder: String, for duration: TimeInterval, at now: Date) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                    WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
                    """,
                arguments: [
                    name, holder, now.addingTimeInterval(duration).timeIntervalSince1970, now.timeIntervalSince1970,
                ])
            return db.changesCount > 0
        }
    }

    /// Gives the lease up, if the holder still has it.
    package func releaseLease(_ name: String, holder: String) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM leases WHERE name = ? AND holder = ?", arguments: [name, holder])
        }
    }

    /// Who holds the lease now, if anyone.
    package func leaseHolder(_ name: String, at now: Date) throws -> String? {
        try reader.read { db in
            try String.fetchOne(
                db, sql: "SELECT holder FROM leases WHERE name = ? AND expires_at > ?",
                arguments: [name, now.timeIntervalSince1970])
        }
    }
}
