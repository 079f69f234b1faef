import Foundation
import GGTrackerCore

extension Reply {
    /// Renders as a Matrix `m.notice`: a plain `body` and an `org.matrix.custom.html` `formatted_body`, every user and
    /// catalog string escaped, no `<img>` (covers are linked, since Matrix wants mxc:// media), buttons turned into
    /// numbered `!gg …` hints, commands named in the words typed as `!gg …` too, and no mentions. Kept under Matrix's
    /// 64 KiB event limit.
    package func matrixContent(replyTo eventID: String?, privateFor name: String? = nil) -> MatrixMessage {
        typingCommands(as: "!gg ").matrixRendered(replyTo: eventID, privateFor: name)
    }

    private func matrixRendered(replyTo eventID: String?, privateFor name: String?) -> MatrixMessage {
        var html: [String] = []
        var plain: [String] = []
        if let name {
            html.append("<p><em>For \(MatrixHTML.escape(name)):</em></p>")
            plain.append("For \(name):")
        }
        if let text {
            html.append("<p>\(text.matrixHTML)</p>")
            plain.append(text.matrixBody)
        }
        for card in cards {
            var block = "<blockquote>"
            var lines: [String] = []
            if let title = card.title {
                let escaped = MatrixHTML.escape(title)
                block +=
                    "<p><strong>" + (card.url.map { "<a href=\"\(MatrixHTML.escape($0))\">\(escaped)</a>" } ?? escaped)
                    + "</strong></p>"
                lines.append(title)
            }
            if let description = card.description {
                block += "<p>\(description.matrixHTML)</p>"
                lines.append(description.matrixBody)
            }
            for field in card.fields {
                let body = field.value.matrixBody
                // A value of several lines (a list, a chart) starts on a line of its own, as a block does in HTML.
                if body.contains("\n") {
                    let html = field.value.matrixHTML
                    block +=
                        "<p><em>\(MatrixHTML.escape(field.name))</em>:</p>"
                        + (html.hasPrefix("<pre>") && html.hasSuffix("</pre>") ? html : "<p>\(html)</p>")
                    lines.append("\(field.name):\n\(body)")
                } else {
                    block += "<p><em>\(MatrixHTML.escape(field.name))</em>: \(field.value.matrixHTML)</p>"
                    lines.append("\(field.name): \(body)")
                }
            }
            if let cover = card.thumbnailURL {
                block += "<p><a href=\"\(MatrixHTML.escape(cover))\">cover</a></p>"
            }
            if let footer = card.footer {
                block += "<p><sub>\(MatrixHTML.escape(footer))</sub></p>"
                lines.append(footer)
            }
            html.append(block + "</blockquote>")
            plain.append(lines.joined(separator: "\n"))
        }
        let hints =
            actions.flatMap { $0 }.filter { !$0.disabled }.map { ($0.label, $0.command) }
            // A menu's choices by their own labels: its placeholder ("Your score: 9/10 — change it…") before each
            // read as one run-on phrase.
            + menus.flatMap { menu in menu.options.map { ($0.label, $0.command) } }
        let offered = hints.prefix(30).map { (label: $0.0, command: Self.bang($0.1)) }
        if !offered.isEmpty {
            let items = offered.map { label, command in
                "<li>\(MatrixHTML.escape(label)): reply <code>!gg \(MatrixHTML.escape(command))</code></li>"
            }
            html.append("<ol>\(items.joined())</ol><p><sub>\(Self.choosing)</sub></p>")
            plain.append(
                offered.enumerated().map { "\($0 + 1). \($1.label): reply !gg \($1.command)" }.joined(separator: "\n")
                    + "\n" + Self.choosing)
        }
        if let modal {
            let option = modal.inputs.first?.option ?? "text"
            html.append("<p>Reply <code>!gg \(MatrixHTML.escape(Self.bang(modal.command))) \(option):…</code></p>")
            plain.append("Reply !gg \(Self.bang(modal.command)) \(option):…")
        }
        var body = plain.joined(separator: "\n\n")
        var formatted = html.joined()
        // Matrix events are limited to 64 KiB in all; leave room for the envelope.
        if body.utf8.count + formatted.utf8.count > 56_000 {
            body = String(body.prefix(20_000))
            formatted = MatrixHTML.escape(String(body.prefix(20_000))).replacingOccurrences(of: "\n", with: "<br>")
        }
        return MatrixMessage(
            body: body, formattedBody: formatted,
            relatesTo: eventID.map { .init(inReplyTo: .init(eventID: $0)) },
            commands: offered.isEmpty ? nil : offered.map(\.command))
    }

    /// Said under the numbered hints.
    static let choosing = "(Or reply to this message with a number.)"

    /// `/add title:x` → `add title:x`, the form typed after `!gg`.
    static func bang(_ command: String) -> String {
        command.hasPrefix("/") ? String(command.dropFirst()) : command
    }
}

/// Matrix's HTML (`org.matrix.custom.html`), written from a reply's spans with every word escaped.
enum MatrixHTML {
    static func escape(_ text: String) -> String { HTML.escape(text) }
}

extension RichText {
    /// The plain `body`: the words, with code in backticks as people type it in chat.
    var matrixBody: String {
        spans.map { span in
            switch span {
            case .code(let text): return "`" + text + "`"
            // A Matrix user id is written whole, its "@" included.
            case .mention(let id) where id.hasPrefix("@"): return id
            default: return RichText([span]).plainText
            }
        }.joined()
    }

    var matrixHTML: String {
        var html = ""
        for span in spans {
            switch span {
            case .plain(let text): html += MatrixHTML.escape(text).replacingOccurrences(of: "\n", with: "<br>")
            case .bold(let text): html += "<strong>" + MatrixHTML.escape(text) + "</strong>"
            case .code(let text): html += "<code>" + MatrixHTML.escape(text) + "</code>"
            case .block(let text): html += "<pre>" + MatrixHTML.escape(text) + "</pre>"
            case .link(let label, let url):
                html += "<a href=\"" + MatrixHTML.escape(url) + "\">" + MatrixHTML.escape(label) + "</a>"
            // A user's pill; only a message whose `m.mentions` names them pings them (a reply never does).
            case .mention(let id) where id.hasPrefix("@"):
                html +=
                    "<a href=\"https://matrix.to/#/" + MatrixHTML.escape(id) + "\">" + MatrixHTML.escape(id) + "</a>"
            case .relative, .mention, .channel: html += MatrixHTML.escape(RichText([span]).plainText)
            // Clients hide it until clicked; the plain `body` says a spoiler is hidden.
            case .spoiler(let text):
                html +=
                    "<span data-mx-spoiler>" + MatrixHTML.escape(text).replacingOccurrences(of: "\n", with: "<br>")
                    + "</span>"
            }
        }
        return html
    }
}
