import Foundation

/// An incoming interaction, as Discord sends it.
/// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
package struct DiscordInteraction: Decodable, Equatable, Sendable {
    package var id: String
    package var applicationID: String?
    package var type: InteractionType
    package var data: InteractionData?
    package var guildID: String?
    package var channelID: String?
    package var channel: Channel?
    package var member: Member?
    package var user: User?
    package var token: String?

    enum CodingKeys: String, CodingKey {
        case id, type, data, channel, member, user, token
        case applicationID = "application_id"
        case guildID = "guild_id"
        case channelID = "channel_id"
    }

    /// Interaction types; an unknown value decodes instead of failing.
    package enum InteractionType: Decodable, Equatable, Sendable {
        case ping, applicationCommand, messageComponent, autocomplete, modalSubmit
        case unknown(Int)

        package init(from decoder: any Decoder) throws {
            self.init(raw: try decoder.singleValueContainer().decode(Int.self))
        }
    }

    package struct User: Decodable, Equatable, Sendable {
        package var id: String
        package var username: String?
        package var globalName: String?
        enum CodingKeys: String, CodingKey {
            case id, username
            case globalName = "global_name"
        }
    }

    package struct Member: Decodable, Equatable, Sendable {
        package var user: User?
        package var nick: String?
        /// The member's permissions in the channel, as a decimal bitset string.
        package var permissions: String?
    }

    package struct Channel: Decodable, Equatable, Sendable {
        package var id: String
        package var nsfw: Bool?
    }

    package struct InteractionData: Decodable, Equatable, Sendable {
        package var name: String?
        package var options: [Option]?
        package var resolved: Resolved?
        package var customID: String?
        package var componentType: DiscordComponentType?
        package var values: [String]?
        package var components: [ModalComponent]?
        /// An application command's type (1 a slash command, 2 a user command) and a user command's member.
        package var type: Int?
        package var targetID: String?

        enum CodingKeys: String, CodingKey {
            case name, options, resolved, values, components, type
            case customID = "custom_id"
            case componentType = "component_type"
            case targetID = "target_id"
        }

        /// The command of a member's context menu this is, if it is one.
        var userCommand: DiscordUserCommand? {
            type == DiscordUserCommand.type ? name.flatMap(DiscordUserCommand.init(rawValue:)) : nil
        }

        /// The custom id that says what to run: a button's own, or for a menu (`gm:`) the chosen option's.
        var commandID: String {
            let id = customID ?? ""
            if id.hasPrefix("gm:"), let chosen = values?.first { return chosen }
            return id
        }
    }

    package struct Option: Decodable, Equatable, Sendable {
        package var name: String
        package var type: DiscordOptionType
        package var value: OptionWireValue?
        package var options: [Option]?
        package var focused: Bool?
    }

    /// An option value: string, integer, number or boolean on the wire.
    package enum OptionWireValue: Decodable, Sendable, Equatable {
        case string(String)
        case integer(Int)
        case number(Double)
        case boolean(Bool)

        package init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) {
                self = .boolean(b)
            } else if let i = try? c.decode(Int.self) {
                self = .integer(i)
            } else if let d = try? c.decode(Double.self) {
                self = .number(d)
            } else {
                self = .string(try c.decode(String.self))
            }
        }

        var text: String {
            switch self {
            case .string(let s): s
            case .integer(let i): String(i)
            case .number(let d): String(d)
            case .boolean(let b): String(b)
            }
        }
    }

    package struct Resolved: Decodable, Equatable, Sendable {
        package var users: [String: User]?
        package var members: [String: Member]?
        package var attachments: [String: AttachmentObject]?
    }

    /// https://discord.com/developers/docs/resources/message#attachment-object
    package struct AttachmentObject: Decodable, Equatable, Sendable {
        package var id: String
        package var filename: String
        package var size: Int
        package var url: String
    }

    /// A modal's submitted component: a label (type 18) holding a text input, or an action row of them.
    package struct ModalComponent: Decodable, Equatable, Sendable {
        package var type: DiscordComponentType
        package var customID: String?
        package var value: String?
        package var component: Box?
        package var components: [ModalComponent]?

        enum CodingKeys: String, CodingKey {
            case type, value, component, components
            case customID = "custom_id"
        }

        /// Every text input's (custom id, value) pair, however nested.
        var inputs: [(String, String)] {
            var out: [(String, String)] = []
            if let customID, let value { out.append((customID, value)) }
            if let inner = component?.value { out += inner.inputs }
            for child in components ?? [] { out += child.inputs }
            return out
        }
    }

    /// Indirection for the recursive `component` field.
    package final class Box: Decodable, Equatable, Sendable {
        let value: ModalComponent
        package static func == (a: Box, b: Box) -> Bool { a.value == b.value }
        package required init(from decoder: any Decoder) throws {
            value = try ModalComponent(from: decoder)
        }
    }

    /// The user who acted, in a server or a DM.
    var actingUser: User? { member?.user ?? user }
}

/// Discord permission bits the bot checks.
/// https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
enum DiscordPermission {
    static let administrator: UInt64 = 1 << 3
    static let manageGuild: UInt64 = 1 << 5
}
