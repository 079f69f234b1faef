import Foundation
import GGTrackerCore

extension Reply {
    /// Renders as a Slack message: Block Kit sections for cards (with the cover as an accessory image), fields,
    /// a context line for footers, buttons and selects whose `value` is the command line they run; commands named
    /// in the words are typed as `/gg …`. https://api.slack.com/reference/block-kit/blocks
    package func slackMessage() -> SlackMessage { typingCommands(as: "/gg ").slackRendered() }

    private func slackRendered() -> SlackMessage {
        var blocks: [SlackBlock] = []
        func section(_ text: String) -> SlackBlock { .section(text: .mrkdwn(Format.truncate(text, 3000))) }
        if let text { blocks.append(section(text.slackMrkdwn)) }
        for card in cards {
            var head: [String] = []
            if let title = card.title {
                let escaped = SlackMrkdwn.escape(title)
                head.append("*" + (card.url.map { "<\($0)|\(escaped)>" } ?? escaped) + "*")
            }
            if let description = card.description { head.append(description.slackMrkdwn) }
            if !head.isEmpty {
                blocks.append(
                    .section(
                        text: .mrkdwn(Format.truncate(head.joined(separator: "\n"), 3000)),
                        accessory: card.thumbnailURL.map { SlackImage(imageURL: $0, altText: card.title ?? "cover") }))
            }
            for chunk in stride(from: 0, to: card.fields.count, by: 10) {
                let fields = card.fields[chunk..<min(chunk + 10, card.fields.count)].map { field in
                    SlackText.mrkdwn(
                        Format.truncate("*\(SlackMrkdwn.escape(field.name))*\n\(field.value.slackMrkdwn)", 2000))
                }
                blocks.append(.section(text: nil, fields: Array(fields)))
            }
            if let footer = card.footer {
                blocks.append(.context([.mrkdwn(Format.truncate(SlackMrkdwn.escape(footer), 3000))]))
            }
        }
        var elements: [SlackElement] = []
        for (index, menu) in menus.enumerated() where !menu.options.isEmpty {
            elements.append(
                .select(
                    actionID: "gg-menu-\(index)", placeholder: .plain(Format.truncate(menu.placeholder, 150)),
                    options: menu.options.prefix(100).map {
                        SlackElement.Option(
                            text: .plain(Format.truncate($0.label, 75)), value: Format.truncate($0.command, 150))
                    }))
        }
        for (index, action) in actions.flatMap({ $0 }).enumerated() where !action.disabled {
            elements.append(
                .button(
                    actionID: "gg-button-\(index)", text: .plain(Format.truncate(action.label, 75)),
                    value: Format.truncate(action.command, 2000),
                    style: action.style == .primary ? "primary" : action.style == .danger ? "danger" : nil))
        }
        if !elements.isEmpty { blocks.append(.actions(Array(elements.prefix(25)))) }
        if let modal {
            let option = modal.inputs.first?.option ?? "text"
            blocks.append(section("Reply with `/gg \(SlackMrkdwn.escape(Reply.bang(modal.command))) \(option):…`"))
        }
        let fallback = text?.plainText ?? cards.first?.title ?? "GGTracker"
        return SlackMessage(
            responseType: visibility == .invokerOnly ? "ephemeral" : "in_channel",
            text: Format.truncate(fallback, 3000), blocks: Array(blocks.prefix(50)))
    }
}

/// Slack's mrkdwn: `*bold*`, `&`, `<` and `>` escaped.
enum SlackMrkdwn {
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
            case .plain(let text): out += SlackMrkdwn.escape(text)
            case .bold(let text): out += "*" + SlackMrkdwn.escape(text) + "*"
            case .code(let text): out += "`" + SlackMrkdwn.escape(text) + "`"
            case .block(let text): out += "```\n" + SlackMrkdwn.escape(text) + "\n```"
            case .link(let label, let url): out += "<" + url + "|" + SlackMrkdwn.escape(label) + ">"
            case .relative: out += SlackMrkdwn.escape(RichText([span]).plainText)
            case .mention(let id): out += "<@" + id + ">"
            case .channel(let id): out += "<#" + id + ">"
            // Slack cannot hide words behind a click: the reply's own button shows them privately.
            case .spoiler: out += "_" + RichText.spoilerHidden + "_"
            }
        }
        return out
    }
}
