import Foundation
import GGTrackerCore

extension Reply {
    /// Renders as a Slack message: Block Kit sections for cards (with the cover as an accessory image), fields,
    /// a context line for footers, buttons and selects whose `value` is the command line they run.
    /// https://api.slack.com/reference/block-kit/blocks
    package func slackMessage() -> [String: Any] {
        var blocks: [[String: Any]] = []
        func section(_ text: String) -> [String: Any] {
            ["type": "section", "text": ["type": "mrkdwn", "text": Format.truncate(text, 3000)]]
        }
        if let text { blocks.append(section(text.slackMrkdwn)) }
        for card in cards {
            var head: [String] = []
            if let title = card.title {
                let escaped = SlackText.escape(title)
                head.append("*" + (card.url.map { "<\($0)|\(escaped)>" } ?? escaped) + "*")
            }
            if let description = card.description { head.append(description.slackMrkdwn) }
            if !head.isEmpty {
                var block = section(head.joined(separator: "\n"))
                if let thumbnail = card.thumbnailURL {
                    block["accessory"] = ["type": "image", "image_url": thumbnail, "alt_text": card.title ?? "cover"]
                }
                blocks.append(block)
            }
            if !card.fields.isEmpty {
                for chunk in stride(from: 0, to: card.fields.count, by: 10) {
                    let fields = card.fields[chunk..<min(chunk + 10, card.fields.count)].map { field -> [String: Any] in
                        [
                            "type": "mrkdwn",
                            "text": Format.truncate(
                                "*\(SlackText.escape(field.name))*\n\(field.value.slackMrkdwn)", 2000),
                        ]
                    }
                    blocks.append(["type": "section", "fields": fields])
                }
            }
            if let footer = card.footer {
                blocks.append([
                    "type": "context",
                    "elements": [["type": "mrkdwn", "text": Format.truncate(SlackText.escape(footer), 3000)]],
                ])
            }
        }
        var elements: [[String: Any]] = []
        for (index, menu) in menus.enumerated() where !menu.options.isEmpty {
            elements.append([
                "type": "static_select", "action_id": "gg-menu-\(index)",
                "placeholder": ["type": "plain_text", "text": Format.truncate(menu.placeholder, 150)],
                "options": menu.options.prefix(100).map { option -> [String: Any] in
                    [
                        "text": ["type": "plain_text", "text": Format.truncate(option.label, 75)],
                        "value": Format.truncate(option.command, 150),
                    ]
                },
            ])
        }
        for (index, action) in actions.flatMap({ $0 }).enumerated() where !action.disabled {
            var button: [String: Any] = [
                "type": "button", "action_id": "gg-button-\(index)",
                "text": ["type": "plain_text", "text": Format.truncate(action.label, 75)],
                "value": Format.truncate(action.command, 2000),
            ]
            if action.style == .primary { button["style"] = "primary" }
            if action.style == .danger { button["style"] = "danger" }
            elements.append(button)
        }
        if !elements.isEmpty { blocks.append(["type": "actions", "elements": Array(elements.prefix(25))]) }
        if let modal {
            let option = modal.inputs.first?.option ?? "text"
            blocks.append(section("Reply with `/gg \(SlackText.escape(Reply.bang(modal.command))) \(option):…`"))
        }
        let fallback = text?.plainText ?? cards.first?.title ?? "GGTracker"
        return [
            "response_type": visibility == .invokerOnly ? "ephemeral" : "in_channel",
            "text": Format.truncate(fallback, 3000),
            "blocks": Array(blocks.prefix(50)),
        ]
    }
}

/// Slack's mrkdwn: `*bold*`, `&`, `<` and `>` escaped.
enum SlackText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension RichText {
    var slackMrkdwn: String {
        var out = ""
        for span in spans {
            switch span {
            case .plain(let text): out += SlackText.escape(text)
            case .bold(let text): out += "*" + SlackText.escape(text) + "*"
            case .code(let text): out += "`" + SlackText.escape(text) + "`"
            case .block(let text): out += "```\n" + SlackText.escape(text) + "\n```"
            case .link(let label, let url): out += "<" + url + "|" + SlackText.escape(label) + ">"
            case .relative: out += SlackText.escape(RichText([span]).plainText)
            case .mention(let id): out += "<@" + id + ">"
            case .channel(let id): out += "<#" + id + ">"
            }
        }
        return out
    }
}
