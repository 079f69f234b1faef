/// What `/profile set` changes: a player's nickname, avatar and bio, each set or cleared.
package enum ProfileField: String, CaseIterable, Hashable, Sendable {
    case nickname, avatar, bio

    /// What the player's profile holds for it now.
    package func value(of player: Player) -> String? {
        switch self {
        case .nickname: player.nickname
        case .avatar: player.avatarURL
        case .bio: player.bio
        }
    }
}

/// The `clear` option of `/profile set`: one field, or every one.
package enum ProfileClearing: String, CaseIterable, Sendable {
    case nickname, avatar, bio, all

    package var fields: [ProfileField] {
        switch self {
        case .nickname: [.nickname]
        case .avatar: [.avatar]
        case .bio: [.bio]
        case .all: ProfileField.allCases
        }
    }
}
