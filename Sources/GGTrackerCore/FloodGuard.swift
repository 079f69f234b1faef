import Foundation

/// Per-user and per-server rate limits: a token bucket for each user and each server. A bucket holds up to a
/// minute's allowance and refills evenly, so a short burst passes and a flood is slowed to the set rate.
package final class FloodGuard: @unchecked Sendable {
    package struct Limits: Sendable, Equatable {
        /// Commands a minute for one user; 0 means no limit.
        package var userPerMinute: Int
        /// Commands a minute for a whole server (guild, room, workspace); 0 means no limit.
        package var serverPerMinute: Int

        package init(userPerMinute: Int = 30, serverPerMinute: Int = 300) {
            self.userPerMinute = userPerMinute
            self.serverPerMinute = serverPerMinute
        }
    }

    struct Bucket {
        var tokens: Double
        var updated: Date
    }

    package let limits: Limits
    private let lock = NSLock()
    private var users: [String: Bucket] = [:]
    private var servers: [String: Bucket] = [:]

    package init(_ limits: Limits) {
        self.limits = limits
    }

    /// Takes one command's allowance for the user and their server. Nil when admitted; otherwise the seconds
    /// until the next command would be, and nothing is taken.
    package func admit(user: String, server: String, at now: Date) -> Int? {
        lock.withLock {
            let userWait = Self.wait(&users, user, perMinute: limits.userPerMinute, now)
            let serverWait = Self.wait(&servers, server, perMinute: limits.serverPerMinute, now)
            if let wait = [userWait, serverWait].compactMap({ $0 }).max() { return Int(wait.rounded(.up)) }
            Self.take(&users, user, perMinute: limits.userPerMinute)
            Self.take(&servers, server, perMinute: limits.serverPerMinute)
            if users.count > 50_000 { Self.forgetFull(&users, perMinute: limits.userPerMinute, now) }
            if servers.count > 50_000 { Self.forgetFull(&servers, perMinute: limits.serverPerMinute, now) }
            return nil
        }
    }

    /// Refills the bucket to `now`; the seconds until it holds one token, or nil when it already does.
    private static func wait(
        _ buckets: inout [String: Bucket], _ key: String, perMinute: Int, _ now: Date
    )
        -> Double?
    {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let rate = capacity / 60
        var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
        bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * rate)
        bucket.updated = now
        buckets[key] = bucket
        return bucket.tokens >= 1 ? nil : (1 - bucket.tokens) / rate
    }

    private static func take(_ buckets: inout [String: Bucket], _ key: String, perMinute: Int) {
        guard perMinute > 0 else { return }
        buckets[key]?.tokens -= 1
    }

    /// Drops buckets that have refilled: they are the same as no bucket.
    private static func forgetFull(_ buckets: inout [String: Bucket], perMinute: Int, _ now: Date) {
        let capacity = Double(perMinute)
        buckets = buckets.filter {
            $0.value.tokens + now.timeIntervalSince($0.value.updated) * capacity / 60 < capacity
        }
    }
}
