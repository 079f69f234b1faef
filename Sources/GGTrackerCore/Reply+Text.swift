import Foundation

extension Reply {
    /// Renders as readable plain text, for the terminal and plain-text clients.
    /// Markdown escapes are removed; buttons become the command lines they would run.
    package func plainText() -> String {
        var lines: [String] = []
        if visibility == .invokerOnly { lines.append("(only you can see this)") }
        if let text { lines.append(Self.unescape(text)) }
        for card in cards {
            if !lines.isEmpty { lines.append("") }
            if let title = card.title { lines.append("▌ " + Self.unescape(title)) }
            if let url = card.url { lines.append("  " + url) }
            if let description = card.description {
                lines += Self.unescape(description).split(separator: "\n", omittingEmptySubsequences: false).map {
                    "  " + $0
                }
            }
            for field in card.fields {
                let value = Self.unescape(field.value).replacingOccurrences(of: "```\n", with: "").replacingOccurrences(
                    of: "\n```", with: "")
                let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false)
                if valueLines.count > 1 {
                    lines.append("  \(field.name):")
                    lines += valueLines.map { "    " + $0 }
                } else {
                    lines.append("  \(field.name): \(value)")
                }
            }
            if let footer = card.footer { lines.append("  — " + Self.unescape(footer)) }
        }
        if let modal {
            lines.append("\(modal.title): give \(modal.inputs.map(\.option).joined(separator: ", ")) — for example:")
            lines.append("  \(modal.command) \(modal.inputs.first.map { "\($0.option):…" } ?? "")")
        }
        let buttons = actions.flatMap { $0 }.filter { !$0.disabled }
        if !buttons.isEmpty {
            lines.append("")
            for action in buttons { lines.append("  [\(action.label)] \(action.command)") }
        }
        for menu in menus {
            lines.append("")
            lines.append("  \(menu.placeholder)")
            for option in menu.options { lines.append("    \(option.command)  (\(option.label))") }
        }
        return lines.joined(separator: "\n")
    }

    /// Plain text from the markup the features write: backslash escapes and `**` removed, Discord timestamps
    /// (`<t:1700000000:R>`, which only Discord renders) turned into dates.
    package static func unescape(_ text: String) -> String {
        var out = ""
        var escaping = false
        for ch in timestamps(text) {
            if ch == "\\" && !escaping {
                escaping = true
                continue
            }
            escaping = false
            out.append(ch)
        }
        return out.replacingOccurrences(of: "**", with: "")
    }

    package static func timestamps(_ text: String) -> String {
        var out = text
        while let start = out.range(of: "<t:"), let end = out[start.upperBound...].range(of: ">") {
            let seconds = out[start.upperBound..<end.lowerBound].split(separator: ":").first.flatMap { Double($0) }
            out.replaceSubrange(
                start.lowerBound..<end.upperBound,
                with: seconds.map { Format.date(Date(timeIntervalSince1970: $0)) } ?? "")
        }
        return out
    }
}
