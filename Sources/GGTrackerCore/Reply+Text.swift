import Foundation

extension Reply {
    /// Renders as readable plain text, for the terminal and plain-text clients: no formatting, moments as
    /// dates relative to now; buttons become the command lines they would run.
    package func plainText() -> String {
        var lines: [String] = []
        if visibility == .invokerOnly { lines.append("(only you can see this)") }
        if let text { lines.append(text.plainText) }
        for card in cards {
            if !lines.isEmpty { lines.append("") }
            if let title = card.title { lines.append("▌ " + title) }
            if let url = card.url { lines.append("  " + url) }
            if let description = card.description {
                lines += description.plainText.split(separator: "\n", omittingEmptySubsequences: false).map {
                    "  " + $0
                }
            }
            for field in card.fields {
                let value = field.value.plainText
                let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false)
                if valueLines.count > 1 {
                    lines.append("  \(field.name):")
                    lines += valueLines.map { "    " + $0 }
                } else {
                    lines.append("  \(field.name): \(value)")
                }
            }
            if let footer = card.footer { lines.append("  — " + footer) }
        }
        if let modal {
            // The form Discord would open, as the command to type; what it would hold already is shown (the
            // terminal is private).
            lines.append("\(modal.title) — type it as:")
            lines.append("  \(modal.command) \(modal.inputs.first.map { "\($0.option):…" } ?? "")")
            for input in modal.inputs {
                guard let value = input.value, !value.isEmpty else { continue }
                lines.append("  \(input.label) now: “\(value)”")
            }
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
}
