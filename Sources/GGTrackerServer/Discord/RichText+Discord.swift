import Foundation
import GGTrackerCore

/// Discord's markdown, written from a reply's spans: plain words escaped, so text from players or the catalog can
/// never change a layout.
enum DiscordMarkdown {
    /// Backslashes before markdown's special characters.
    static func escape(_ text: String) -> String {
        // Markdown's special characters are all ASCII, so bytes can be checked; most names have none of them.
        func special(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"),
                UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "#"):
                true
            default: false
            }
        }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if special(byte) { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A code span or block cannot hold its own fence: a backtick inside becomes a quote.
    static func fenced(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "'") }
}

extension RichText {
    /// Discord's markdown in at most `limit` characters, a cut span's markup kept whole.
    func discordMarkdown(within limit: Int) -> String { rendered(within: limit) { $0.discordMarkdown } }

    var discordMarkdown: String {
        var out = ""
        for span in spans {
            switch span {
            case .plain(let text): out += DiscordMarkdown.escape(text)
            case .bold(let text): out += "**" + DiscordMarkdown.escape(text) + "**"
            case .code(let text): out += "`" + DiscordMarkdown.fenced(text) + "`"
            case .block(let text): out += "```\n" + DiscordMarkdown.fenced(text) + "\n```"
            case .link(let label, let url): out += "[" + DiscordMarkdown.escape(label) + "](" + url + ")"
            case .relative(let date): out += "<t:\(Int(date.timeIntervalSince1970)):R>"
            case .mention(let id): out += "<@" + id + ">"
            case .channel(let id): out += "<#" + id + ">"
            // Hidden until clicked; `|` inside is escaped, so the words cannot end the spoiler early.
            case .spoiler(let text): out += "||" + DiscordMarkdown.escape(text) + "||"
            }
        }
        return out
    }
}
