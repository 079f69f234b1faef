import GGTrackerCore
import Logging

/// Runs an announcement's post in the background, after the command's reply: a failure is logged, never shown.
func announceInBackground(
    _ announcement: Announcement, logger: Logger, post: @escaping @Sendable (Announcement) async throws -> Void
) {
    Task.detached(priority: .utility) {
        do {
            try await post(announcement)
        } catch {
            logger.warning(
                "announcement failed", metadata: ["channel": "\(announcement.channel)", "error": "\(error)"])
        }
    }
}
