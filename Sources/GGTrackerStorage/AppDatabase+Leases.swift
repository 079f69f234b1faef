import Foundation

extension AppDatabase {
    /// Takes the named lease for `holder` until `now + duration` when it is free, expired, or already the
    /// holder's (then it is renewed). False when another holder has it.
    package func acquireLease(_ name: String, holder: String, for duration: TimeInterval, at now: Date) throws -> Bool {
        try writeNow { db in
            try db.execute(
                """
                INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
                """,
                [
                    name, holder, now.addingTimeInterval(duration).timeIntervalSince1970, now.timeIntervalSince1970,
                ])
            return db.changesCount > 0
        }
    }

    /// Gives the lease up, if the holder still has it.
    package func releaseLease(_ name: String, holder: String) throws {
        try writeNow { db in
            try db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder])
        }
    }

    /// Who holds the lease now, if anyone.
    package func leaseHolder(_ name: String, at now: Date) throws -> String? {
        try readNow { db in
            try
                (db.value(
                    "SELECT holder FROM leases WHERE name = ? AND expires_at > ?", [name, now.timeIntervalSince1970])
                as String?)
        }
    }
}
