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
        if let text { blocks.append(section(text.slackMrkdwn(within: 3000))) }
        for card in cards {
            // A section's text holds 3000 characters and a field's 2000: the title comes whole, the words after it
            // are cut to what is left, their markup kept whole.
            var head = ""
            if let title = card.title {
                let escaped = SlackMrkdwn.escape(Format.truncate(title, 250))
                head = "*" + (card.url.map { "<\($0)|\(escaped)>" } ?? escaped) + "*"
            }
            if let description = card.description {
                let room = 3000 - Format.length(head) - (head.isEmpty ? 0 : 1)
                head += (head.isEmpty ? "" : "\n") + description.slackMrkdwn(within: room)
            }
            if !head.isEmpty {
                blocks.append(
                    .section(
                        text: .mrkdwn(Format.truncate(head, 3000)),
                        accessory: card.thumbnailURL.map { SlackImage(imageURL: $0, altText: card.title ?? "cover") }))
            }
            for chunk in stride(from: 0, to: card.fields.count, by: 10) {
                let fields = card.fields[chunk..<min(chunk + 10, card.fields.count)].map { field in
                    let name = "*\(SlackMrkdwn.escape(Format.truncate(field.name, 250)))*\n"
                    return SlackText.mrkdwn(name + field.value.slackMrkdwn(within: 2000 - Format.length(name)))
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
    /// Slack's mrkdwn in at most `limit` characters, a cut span's markup kept whole.
    func slackMrkdwn(within limit: Int) -> String { rendered(within: limit) { $0.slackMrkdwn } }

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
