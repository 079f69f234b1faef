import GGTrackerCore

/// The numbers Discord's JSON uses for kinds of things, named. Each is an open set: a value Discord adds later
/// still decodes, and is simply not one of these.
/// https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-type
package struct DiscordOptionType: RawRepresentable, Codable, Hashable, Sendable {
    package var rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let subcommand = Self(rawValue: 1)
    package static let subcommandGroup = Self(rawValue: 2)
    package static let string = Self(rawValue: 3)
    package static let integer = Self(rawValue: 4)
    package static let boolean = Self(rawValue: 5)
    package static let user = Self(rawValue: 6)
    package static let channel = Self(rawValue: 7)
    package static let number = Self(rawValue: 10)
    package static let attachment = Self(rawValue: 11)

    /// The type of a declared option.
    init(_ kind: OptionKind) {
        self =
            switch kind {
            case .string: .string
            case .integer: .integer
            case .boolean: .boolean
            case .user: .user
            case .channel: .channel
            case .number: .number
            case .attachment: .attachment
            }
    }

    /// A subcommand or a group of them, which carry options rather than a value.
    var isSubcommand: Bool { self == .subcommand || self == .subcommandGroup }
}

/// https://discord.com/developers/docs/components/reference#component-object-component-types
package struct DiscordComponentType: RawRepresentable, Codable, Hashable, Sendable {
    package var rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let actionRow = Self(rawValue: 1)
    package static let button = Self(rawValue: 2)
    package static let stringSelect = Self(rawValue: 3)
    package static let textInput = Self(rawValue: 4)
    package static let label = Self(rawValue: 18)
}

/// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type
package struct DiscordCallbackType: RawRepresentable, Codable, Hashable, Sendable {
    package var rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let pong = Self(rawValue: 1)
    package static let channelMessage = Self(rawValue: 4)
    package static let deferredChannelMessage = Self(rawValue: 5)
    package static let deferredUpdateMessage = Self(rawValue: 6)
    package static let updateMessage = Self(rawValue: 7)
    package static let autocompleteResult = Self(rawValue: 8)
    package static let modal = Self(rawValue: 9)
}
