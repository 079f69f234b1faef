import Foundation

/// Discord's and Slack's tokens for a user or a channel inside typed text and older buttons (`<@123>`, `<@!123>`,
/// `<@U123|ada>`, `<#C123|general>`), turned into the form every command line uses: `@123`, `#C123`.
enum MentionTokens {
    static func neutral(_ line: String) -> String {
        guard line.contains("<") else { return line }
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let token = rest[open...]
            guard let close = token.firstIndex(of: ">") else { break }
            let inner = token[token.index(after: open)..<close]
            let sigil = inner.first
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
