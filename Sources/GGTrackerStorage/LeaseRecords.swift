import Foundation

extension LeaseRecords {
    /// Takes the named lease for `holder` until `now + duration` when it is free, expired, or already the
    /// holder's (then it is renewed). False when another holder has it.
    package func acquireLease(
        _ name: String, holder: String, for duration: TimeInterval, at now: Date
    ) async throws -> Bool {
        try await write { db in
            try await db.execute(
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
    package func releaseLease(_ name: String, holder: String) async throws {
        try await write { db in
            try await db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder])
        }
    }

    /// Who holds the lease now, if anyone.
    package func leaseHolder(_ name: String, at now: Date) async throws -> String? {
        try await read { db in
            try await
                (db.value(
                    "SELECT holder FROM leases WHERE name = ? AND expires_at > ?", [name, now.timeIntervalSince1970])
                as String?)
        }
    }
}

extension LeaseRecords {
    /// Takes one of the `perSecond` calls to `name` allowed in the current second, counted across every process
    /// sharing the database; false when they are all taken.
    package func takeRequestSlot(_ name: String, perSecond: Int, at now: Date) async throws -> Bool {
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        return try await write { db in
            try await db.execute(
                """
                INSERT INTO request_budget (name, second, used) VALUES (?, ?, 1)
                ON CONFLICT (name, second) DO UPDATE SET used = request_budget.used + 1
                WHERE request_budget.used < ?
                """, [name, second, perSecond])
            guard db.changesCount > 0 else { return false }
            // The first call of a second clears the counts of seconds long gone.
            if try await db.value("SELECT used FROM request_budget WHERE name = ? AND second = ?", [name, second]) == 1
            {
                try await db.execute("DELETE FROM request_budget WHERE name = ? AND second < ?", [name, second - 60])
            }
            return true
        }
    }
}
