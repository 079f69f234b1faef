import Foundation
import GGTrackerCore

extension SocialRecords {
    package func announceChannels(ofMember player: PlayerID) async throws -> [AnnounceTarget] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT c.id, c.announce_channel, c.age_gate FROM memberships m JOIN communities c ON c.id = m.community_id
                WHERE m.player_id = ? AND c.announce_channel IS NOT NULL AND c.id NOT LIKE ?
                ORDER BY c.id
                """, [player.rawValue, Invoker.directMessageCommunities]
            ).compactMap { row in
                CommunitySettings(
                    announceChannel: row["announce_channel"], ageGate: AgeGate(rawValue: row["age_gate"]) ?? .strict
                ).announceTarget(in: row["id"])
            }
        }
    }

    /// Notes how the last post to a community's announce channel went: a failure is kept with its reason and time
    /// for `/admin settings` (while that channel is still the announce channel); a post that went through clears
    /// one kept.
    package func noteAnnouncement(in community: String, channel: String, failure: String?, at now: Date) async throws {
        try await write { db in
            if let failure {
                try await db.execute(
                    """
                    UPDATE communities SET announce_failure = ?, announce_failed_at = ?
                    WHERE id = ? AND announce_channel = ?
                    """, [failure, now.timeIntervalSince1970, community, channel])
            } else {
                try await db.execute(
                    """
                    UPDATE communities SET announce_failure = NULL, announce_failed_at = NULL
                    WHERE id = ? AND announce_channel = ? AND announce_failure IS NOT NULL
                    """, [community, channel])
            }
        }
    }
}
