import AsyncHTTPClient
import Foundation
import GGTrackerCore
import NIOCore
import NIOHTTP1

/// The commands in a member's context menu (Apps), each a slash command about that member, answered only to whoever
/// asked. https://discord.com/developers/docs/interactions/application-commands#user-commands
package enum DiscordUserCommand: String, CaseIterable, Sendable {
    case library = "Library"
    case compare = "Compare with me"

    /// The application command type of a user command (`USER`).
    static let type = 2

    /// The slash command it runs, with the member as its `user`.
    var command: String {
        switch self {
        case .library: "list"
        case .compare: "compare"
        }
    }
}

/// A slash command as Discord registers it, generated from the command declarations.
/// https://discord.com/developers/docs/interactions/application-commands#application-command-object
package struct DiscordCommandDefinition: Encodable, Sendable {
    var name: String
    /// A top-level command's application command type (1, a slash command), or an option's type.
    var type: Int?
    var description: String
    var options: [DiscordCommandDefinition]?
    var required: Bool?
    var choices: [ChoiceValue]?
    var autocomplete: Bool?
    var minValue: Double?
    var maxValue: Double?
    var maxLength: Int?
    /// For a channel option, the kinds of channel Discord's picker offers.
    var channelTypes: [Int]?
    var defaultMemberPermissions: String?
    var contexts: [Int]?

    struct ChoiceValue: Encodable, Sendable {
        var name: String
        var value: String
    }

    enum CodingKeys: String, CodingKey {
        case name, type, description, options, required, choices, autocomplete, contexts
        case minValue = "min_value"
        case maxValue = "max_value"
        case maxLength = "max_length"
        case channelTypes = "channel_types"
        case defaultMemberPermissions = "default_member_permissions"
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(options, forKey: .options)
        try c.encodeIfPresent(required, forKey: .required)
        try c.encodeIfPresent(choices, forKey: .choices)
        try c.encodeIfPresent(autocomplete, forKey: .autocomplete)
        try c.encodeIfPresent(minValue, forKey: .minValue)
        try c.encodeIfPresent(maxValue, forKey: .maxValue)
        try c.encodeIfPresent(maxLength, forKey: .maxLength)
        try c.encodeIfPresent(channelTypes, forKey: .channelTypes)
        try c.encodeIfPresent(defaultMemberPermissions, forKey: .defaultMemberPermissions)
        try c.encodeIfPresent(contexts, forKey: .contexts)
    }

    /// Every command, in declaration order, then the commands of a member's context menu.
    package static var all: [DiscordCommandDefinition] {
        CommandName.allCases.map { command($0.spec) }
            + DiscordUserCommand.allCases.map {
                // About another member of the server: of no use in a direct message with the bot.
                DiscordCommandDefinition(
                    name: $0.rawValue, type: DiscordUserCommand.type, description: "", contexts: Self.inServers)
            }
    }

    /// The channels a bot posts messages in: a server's text channels and announcement channels (`GUILD_TEXT`,
    /// `GUILD_ANNOUNCEMENT`); the picker leaves out voice channels, categories and forums.
    /// https://discord.com/developers/docs/resources/channel#channel-object-channel-types
    static let postableChannels = [0, 5]

    /// Interaction context types: `GUILD` (0) and `BOT_DM` (1).
    /// https://discord.com/developers/docs/interactions/application-commands#interaction-contexts
    static let inServers = [0]
    static let inServersAndDirectMessages = [0, 1]

    /// The application command type of a slash command (`CHAT_INPUT`).
    static let slashCommand = 1

    static func command(_ spec: CommandSpec) -> DiscordCommandDefinition {
        var definition = DiscordCommandDefinition(
            name: spec.name, type: Self.slashCommand, description: Format.truncate(spec.summary, 100),
            options: children(spec))
        // A player's own games may be kept in a direct message with the bot too; what is about a server's members
        // is offered in servers only (and refused in a direct message all the same).
        definition.contexts = spec.serverOnly ? Self.inServers : Self.inServersAndDirectMessages
        if spec.adminOnly {
            // Administrator or Manage Server; checked again on the server for every request.
            definition.defaultMemberPermissions = String(DiscordPermission.manageGuild)
        }
        return definition
    }

    static func children(_ spec: CommandSpec) -> [DiscordCommandDefinition]? {
        if !spec.subcommands.isEmpty {
            return spec.subcommands.map { sub in
                DiscordCommandDefinition(
                    name: sub.name,
                    type: (sub.subcommands.isEmpty ? DiscordOptionType.subcommand : .subcommandGroup).rawValue,
                    description: Format.truncate(sub.summary, 100),
                    options: children(sub))
            }
        }
        let options = spec.options
        guard !options.isEmpty else { return nil }
        // Discord wants required options first.
        return (options.filter(\.required) + options.filter { !$0.required }).map { option in
            DiscordCommandDefinition(
                name: option.name, type: DiscordOptionType(option.kind).rawValue,
                description: Format.truncate(option.summary, 100),
                required: option.required ? true : nil,
                choices: option.choices.isEmpty
                    ? nil : option.choices.prefix(25).map { ChoiceValue(name: $0, value: $0) },
                autocomplete: option.autocomplete ? true : nil, minValue: option.minValue, maxValue: option.maxValue,
                maxLength: option.maxLength, channelTypes: option.kind == .channel ? Self.postableChannels : nil)
        }
    }

    /// The JSON committed in `commands/` and sent by `commands register`.
    package static func exportJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(all)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// Sends the command definitions to Discord (bulk overwrite), globally or to one guild.
package struct DiscordCommandRegistrar: Sendable {
    package var apiBase: String
    package var applicationID: String
    package var botToken: String

    package init(apiBase: String, applicationID: String, botToken: String) {
        self.apiBase = apiBase
        self.applicationID = applicationID
        self.botToken = botToken
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns how many commands Discord now has.
    package func register(guild: String?, client: HTTPClient = .shared) async throws -> Int {
        let path =
            guild.map { "/applications/\(applicationID)/guilds/\($0)/commands" }
            ?? "/applications/\(applicationID)/commands"
        var request = HTTPClientRequest(url: apiBase + path)
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bot \(botToken)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(
            name: "User-Agent", value: "DiscordBot (https://github.com/ggtracker, \(AppServices.version))")
        request.body = .bytes(ByteBuffer(data: try DiscordCommandDefinition.exportJSON()))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        guard response.status == .ok else {
            throw Failure(description: "Discord answered \(response.status.code): \(String(buffer: body).prefix(500))")
        }
        // The commands as Discord now has them, one object each.
        return try JSONDecoder().decode([Registered].self, from: Data(buffer: body)).count
    }

    /// A registered command in Discord's answer; only counted.
    struct Registered: Decodable {
        var id: String
    }
}
