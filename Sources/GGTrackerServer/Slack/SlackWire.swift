import Foundation

/// The `payload` of a Slack interaction request (a button pressed, a menu option chosen), as Block Kit's
/// `block_actions` describes it; only the fields the bot reads.
/// https://api.slack.com/reference/interaction-payloads/block-actions
package struct SlackInteractionPayload: Decodable, Sendable {
    package var user: User
    package var team: Team?
    package var channel: Channel?
    package var actions: [Action]?
    package var responseURL: String?

    package struct User: Decodable, Sendable {
        package var id: String
        package var username: String?
        package var name: String?
    }

    package struct Team: Decodable, Sendable { package var id: String }
    package struct Channel: Decodable, Sendable { package var id: String }

    /// A button carries its `value`; a select menu the `selected_option`'s.
    package struct Action: Decodable, Sendable {
        package var value: String?
        package var selectedOption: Option?

        package struct Option: Decodable, Sendable { package var value: String }

        enum CodingKeys: String, CodingKey {
            case value
            case selectedOption = "selected_option"
        }
    }

    enum CodingKeys: String, CodingKey {
        case user, team, channel, actions
        case responseURL = "response_url"
    }
}

/// A message as Slack takes it: the answer to a slash command, or what is posted to a `response_url`.
/// https://api.slack.com/interactivity/handling#message_responses
package struct SlackMessage: Encodable, Sendable {
    package var responseType: String
    /// The notification and accessibility fallback for the blocks.
    package var text: String
    package var blocks: [SlackBlock]
    /// For a `response_url`: true replaces the message the button was on.
    package var replaceOriginal: Bool?

    enum CodingKeys: String, CodingKey {
        case text, blocks
        case responseType = "response_type"
        case replaceOriginal = "replace_original"
    }
}

/// A Block Kit text object. https://api.slack.com/reference/block-kit/composition-objects#text
package struct SlackText: Encodable, Sendable, Equatable {
    package var type: String
    package var text: String

    static func mrkdwn(_ text: String) -> Self { Self(type: "mrkdwn", text: text) }
    static func plain(_ text: String) -> Self { Self(type: "plain_text", text: text) }
}

/// The blocks a reply uses. https://api.slack.com/reference/block-kit/blocks
package enum SlackBlock: Encodable, Sendable {
    case section(text: SlackText?, fields: [SlackText]? = nil, accessory: SlackImage? = nil)
    case context([SlackText])
    case actions([SlackElement])

    enum CodingKeys: String, CodingKey {
        case type, text, fields, accessory, elements
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .section(let text, let fields, let accessory):
            try container.encode("section", forKey: .type)
            try container.encodeIfPresent(text, forKey: .text)
            try container.encodeIfPresent(fields, forKey: .fields)
            try container.encodeIfPresent(accessory, forKey: .accessory)
        case .context(let elements):
            try container.encode("context", forKey: .type)
            try container.encode(elements, forKey: .elements)
        case .actions(let elements):
            try container.encode("actions", forKey: .type)
            try container.encode(elements, forKey: .elements)
        }
    }
}

/// An image beside a section's text.
package struct SlackImage: Encodable, Sendable {
    package var type = "image"
    package var imageURL: String
    package var altText: String

    enum CodingKeys: String, CodingKey {
        case type
        case imageURL = "image_url"
        case altText = "alt_text"
    }
}

/// An interactive element of an `actions` block: a button or a static select menu, each carrying the command
/// line it runs as its `value`. https://api.slack.com/reference/block-kit/block-elements
package enum SlackElement: Encodable, Sendable {
    case button(actionID: String, text: SlackText, value: String, style: String?)
    case select(actionID: String, placeholder: SlackText, options: [Option])

    package struct Option: Encodable, Sendable {
        package var text: SlackText
        package var value: String
    }

    enum CodingKeys: String, CodingKey {
        case type, text, value, style, placeholder, options
        case actionID = "action_id"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .button(let actionID, let text, let value, let style):
            try container.encode("button", forKey: .type)
            try container.encode(actionID, forKey: .actionID)
            try container.encode(text, forKey: .text)
            try container.encode(value, forKey: .value)
            try container.encodeIfPresent(style, forKey: .style)
        case .select(let actionID, let placeholder, let options):
            try container.encode("static_select", forKey: .type)
            try container.encode(actionID, forKey: .actionID)
            try container.encode(placeholder, forKey: .placeholder)
            try container.encode(options, forKey: .options)
        }
    }
}
