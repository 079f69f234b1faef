import Foundation

/// Discord's and Slack's tokens for a user or a channel inside typed text and older buttons (`<@123>`, `<@!123>`,
/// `<@U123|ada>`, `<#C123|general>`), turned into the form every command line uses: `@123`, `#C123`; a link in
/// angle brackets (`<https://store.steampowered.com/app/620/>`, Slack's `<https://…|label>`) is its address.
enum MentionTokens {
    /// A Slack slash command's text as typed: its tokens made neutral, a channel as its name (`<#C123|co-op>` is
    /// "#co-op": a tag written with "#" is turned into a channel when one has its name) or, for the one option
    /// that takes a channel, as its id (`#C123`), then the three characters Slack sends as entities (`&amp;`,
    /// `&lt;`, `&gt;`) put back.
    static func slackText(_ text: String, channelsByName: Bool = true) -> String {
        HTML.unescape(neutral(text, channelsByName: channelsByName))
    }

    static func neutral(_ line: String, channelsByName: Bool = false) -> String {
        guard line.contains("<") else { return line }
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let token = rest[open...]
            guard let close = token.firstIndex(of: ">") else { break }
            let inner = token[token.index(after: open)..<close]
            if ["http://", "https://"].contains(where: { inner.lowercased().hasPrefix($0) }),
                !inner.contains(where: \.isWhitespace)
            {
                out += inner.prefix { $0 != "|" }
                rest = token[token.index(after: close)...]
                continue
            }
            let sigil = inner.first
            if channelsByName, sigil == "#", let bar = inner.firstIndex(of: "|"),
                inner.index(after: bar) < inner.endIndex
            {
                out += "#" + inner[inner.index(after: bar)...]
                rest = token[token.index(after: close)...]
                continue
            }
            var id = inner.dropFirst()
            if sigil == "@", id.first == "!" { id = id.dropFirst() }
            id = id.prefix { $0 != "|" }
            if sigil == "@" || sigil == "#", !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                out += String(sigil!) + id
            } else {
                out += token[open...close]
            }
            rest = token[token.index(after: close)...]
        }
        return out + rest
    }
}
