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
