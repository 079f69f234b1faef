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

    /// Discord timestamps as plain text: a date, or for the relative style (`:R`) "in 3 days" / "2 hours ago".
    package static func timestamps(_ text: String, now: Date = Date()) -> String {
        var out = text
        while let start = out.range(of: "<t:"), let end = out[start.upperBound...].range(of: ">") {
            let parts = out[start.upperBound..<end.lowerBound].split(separator: ":")
            let date = parts.first.flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:))
            let shown = date.map { parts.last == "R" && parts.count > 1 ? relative($0, now: now) : Format.date($0) }
            out.replaceSubrange(start.lowerBound..<end.upperBound, with: shown ?? "")
        }
        return out
    }

    /// "in 3 days", "5 minutes ago".
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        let (n, unit): (Int, String) =
            switch magnitude {
            case ..<60: (Int(magnitude), "second")
            case ..<3600: (Int(magnitude / 60), "minute")
            case ..<86_400: (Int(magnitude / 3600), "hour")
            case ..<(86_400 * 60): (Int(magnitude / 86_400), "day")
            case ..<(86_400 * 730): (Int(magnitude / (86_400 * 30)), "month")
            default: (Int(magnitude / (86_400 * 365)), "year")
            }
        let amount = Format.count(n, unit)
        return seconds >= 0 ? "in \(amount)" : "\(amount) ago"
    }
}
