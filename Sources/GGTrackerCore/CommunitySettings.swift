import Foundation

/// Whether mature games show outside age-restricted channels.
package enum AgeGate: String, CaseIterable, Sendable {
    case strict, off
}

/// A post to an announce channel that did not go through: why, in words for the admin, and when.
package struct AnnounceFailure: Hashable, Sendable {
    package var reason: String
    package var at: Date
    package init(reason: String, at: Date) {
        self.reason = reason
        self.at = at
    }
}

/// A server's settings, set by its admins.
package struct CommunitySettings: Hashable, Sendable {
    package var announceChannel: String?
    package var ageGate: AgeGate
    /// Why the last post to the announce channel did not go through, and when; nil once one does (read for
    /// `/admin settings` only).
    package var announceFailure: AnnounceFailure?
    package init(announceChannel: String? = nil, ageGate: AgeGate = .strict, announceFailure: AnnounceFailure? = nil) {
        self.announceChannel = announceChannel
        self.ageGate = ageGate
        self.announceFailure = announceFailure
    }

    /// Whether mature games show where `invoker` writes: in age-restricted channels, or everywhere when the age
    /// gate is off.
    package func showsMature(to invoker: Invoker) -> Bool { invoker.channelIsAgeRestricted || ageGate == .off }

    /// Where this server's news is announced, when it has an announce channel.
    package func announceTarget(in community: String) -> AnnounceTarget? {
        announceChannel.map { AnnounceTarget(community: community, channel: $0, showsMature: ageGate == .off) }
    }
}

/// The announce channels this installation can post to. A channel is posted to as it is set, so an admin learns at
/// once when the bot cannot post there.
package protocol AnnounceChannels: Sendable {
    /// The platforms whose channels can be posted to (with the tokens that allow it).
    var platforms: Set<ChatPlatform> { get }
    /// Posts `announcement` to its channel on `platform`: nil once posted, else why it could not be, for the admin.
    func tryPost(_ announcement: Announcement, on platform: ChatPlatform) async -> RichText?
}

extension LibraryStore {
    /// Sets the settings given and leaves the others, the announce channel included when none is given.
    package func updateSettings(
        of community: String, announceChannel: String?, ageGate: AgeGate?
    ) async throws -> CommunitySettings {
        try await updateSettings(
            of: community, announceChannel: announceChannel, stopAnnouncing: false, ageGate: ageGate)
    }
}

/// A server's announce channel that a command's news goes to.
package struct AnnounceTarget: Hashable, Sendable {
    package var community: String
    package var channel: String
    /// The server's age gate is off: news of a mature game may be announced there. With it strict, the game's
    /// news is not: whether the announce channel is age-restricted is not known.
    package var showsMature: Bool

    package init(community: String, channel: String, showsMature: Bool = false) {
        self.community = community
        self.channel = channel
        self.showsMature = showsMature
    }

    /// Whether news of `game` (nil: of no game) may be announced there.
    package func takes(_ game: Game?) -> Bool { game?.isMature != true || showsMature }
}
