import Foundation

/// Commands named in a reply's words — "`/rate` needs `score`", "Usage: `/rate title:<text> score:…`", "/help
/// command:<name> explains one command" — written the way the reader's platform types them: "/rate" on Discord
/// and in the terminal, "!gg rate" in a Matrix room, "/gg rate" on Slack. Replies name commands in Discord's form;
/// the Matrix and Slack renderers retype them, so every command a reply mentions works as written where it is read.
package enum CommandMentions {
    /// `text` with each command named in it ("/" and a command's name, standing alone) typed after `prefix`
    /// ("!gg "): "/rate title:x" → "!gg rate title:x". Paths ("/u/…", "/export/…") and other slashes stay.
    package static func retyped(_ text: String, as prefix: String) -> String {
        let starts = commandStarts(in: text)
        guard !starts.isEmpty else { return text }
        var out = ""
        var position = text.startIndex
        for slash in starts {
            out += text[position..<slash] + prefix
            position = text.index(after: slash)
        }
        return out + text[position...]
    }

    /// Where a command is named: a "/" at the start or after a space, an opening quote or bracket, followed by a
    /// command's name that no letter, digit, "_", "-" or "/" continues.
    static func commandStarts(in text: String) -> [String.Index] {
        var starts: [String.Index] = []
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "/", previous.map({ $0.isWhitespace || "“\"'(`[".contains($0) }) ?? true {
                let nameStart = text.index(after: index)
                let nameEnd = text[nameStart...].firstIndex { !($0.isASCII && $0.isLowercase) } ?? text.endIndex
                let next = nameEnd < text.endIndex ? text[nameEnd] : nil
                if CommandName(rawValue: String(text[nameStart..<nameEnd])) != nil,
                    !(next.map { $0.isLetter || $0.isNumber || "_-/".contains($0) } ?? false)
                {
                    starts.append(index)
                }
            }
            previous = character
            index = text.index(after: index)
        }
        return starts
    }

    /// Prose of ours (a command's summary or details) with each command it names as code: the "/" and name, a
    /// subcommand of it, and the `option:value` words after them ("“/challenge progress amount:”" → code
    /// "/challenge progress amount:"), so that renderers show and retype it as a command.
    package static func prose(_ text: String) -> RichText {
        var out = RichText()
        var position = text.startIndex
        for start in commandStarts(in: text) where start >= position {
            out += RichText(String(text[position..<start]))
            var end = text[start...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            let name = String(text[text.index(after: start)..<end])
            let spec = CommandName(rawValue: name)?.spec
            // Then a subcommand of it, and words that set an option.
            while end < text.endIndex {
                let wordStart = text.index(after: end)
                let wordEnd = text[wordStart...].firstIndex(where: \.isWhitespace) ?? text.endIndex
                let word = text[wordStart..<wordEnd]
                guard !word.isEmpty, word.contains(":") || spec?.subcommand(String(word)) != nil else { break }
                end = wordEnd
            }
            // Closing punctuation belongs to the sentence.
            while end > start, "”\"'.,;)".contains(text[text.index(before: end)]) { end = text.index(before: end) }
            out += RichText([.code(String(text[start..<end]))])
            position = end
        }
        return out + RichText(String(text[position...]))
    }
}

extension RichText {
    /// The same text with the commands named in its code and preformatted spans typed after `prefix`.
    package func typingCommands(as prefix: String) -> RichText {
        RichText(
            spans.map { span in
                switch span {
                case .code(let text): .code(CommandMentions.retyped(text, as: prefix))
                case .block(let text): .block(CommandMentions.retyped(text, as: prefix))
                default: span
                }
            })
    }
}

extension Reply {
    /// The same reply with every command named in its words (code spans, preformatted blocks, card titles and
    /// footers, which are ours) typed after `prefix`: "!gg " for Matrix, "/gg " for Slack. Buttons, menus and forms
    /// keep their command lines; each renderer writes their hints itself.
    package func typingCommands(as prefix: String) -> Reply {
        var reply = self
        reply.text = text?.typingCommands(as: prefix)
        reply.cards = cards.map { card in
            var card = card
            card.title = card.title.map { CommandMentions.retyped($0, as: prefix) }
            card.description = card.description?.typingCommands(as: prefix)
            card.fields = card.fields.map { field in
                Card.Field(field.name, field.value.typingCommands(as: prefix), inline: field.inline)
            }
            card.footer = card.footer.map { CommandMentions.retyped($0, as: prefix) }
            return card
        }
        return reply
    }
}
