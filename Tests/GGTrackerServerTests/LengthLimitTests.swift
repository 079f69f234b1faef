import Foundation
import GGTrackerCore
import GGTrackerStorage
import PropertyBased
import Testing

@testable import GGTrackerServer

/// Limits count code points, as Discord does, and text that cannot be stored whole is refused.
@Suite("Length limits in code points, and NUL bytes")
struct LengthLimitTests {
    /// One letter under `marks` combining accents: one character on screen, `marks + 1` code points.
    static func zalgo(_ letter: Character, marks: Int) -> String {
        String(letter) + String(repeating: "\u{0301}", count: marks)
    }

    @Test func aNicknameOfThirtyTwoCharactersButThousandsOfCodePointsIsRefused() async throws {
        let harness = try await TestHarness()
        let heavy = String(repeating: Self.zalgo("a", marks: 400), count: 32)
        #expect(heavy.count == 32 && heavy.unicodeScalars.count == 12_832)
        try await harness.withClient { client in
            let answer = try await client.send(
                I.command("profile", [I.sub("set", [I.option("nickname", heavy)])]))
            #expect(answer.ephemeral && answer.content.contains("is 12832 characters long; the limit is 32"))
            let tag = try await client.send(
                I.command("add", [I.option("title", "Celeste")]))
            #expect(!tag.ephemeral)
            let tags = try await client.send(
                I.command(
                    "tag",
                    [
                        I.option("title", "Celeste"),
                        I.option("tags", String(repeating: Self.zalgo("b", marks: 2), count: 12)),
                    ]))
            #expect(tags.ephemeral && tags.content.contains("Tags are 1–32 characters"), "\(tags.content)")
        }
        let player = try await harness.services.database.library.player(PlayerID("discord:111111111111111111"))
        #expect(player?.nickname == nil)
    }

    @Test func repliesStayWithinDiscordsLimitsCountedInCodePoints() {
        let heavyLine = String(repeating: Self.zalgo("x", marks: 3), count: 3000)  // 12,000 code points
        let reply = Reply(
            cards: [
                Card(
                    title: heavyLine, description: RichText(heavyLine),
                    fields: (0..<6).map { Card.Field("f\($0)", heavyLine) }, footer: heavyLine),
                Card(title: heavyLine, description: RichText(heavyLine)),
            ])
        let message = reply.discordMessage { $0 }
        let embeds = message.embeds ?? []
        for embed in embeds {
            #expect(Format.length(embed.title ?? "") <= DiscordLimits.embedTitle)
            #expect(Format.length(embed.description ?? "") <= DiscordLimits.embedDescription)
            for field in embed.fields ?? [] { #expect(Format.length(field.value) <= DiscordLimits.fieldValue) }
            #expect(Format.length(embed.footer?.text ?? "") <= DiscordLimits.footer)
        }
        #expect(embeds.reduce(0) { $0 + $1.countedLength } <= DiscordLimits.embedTotal)
        // Cut between whole characters: no accent is left without its letter.
        var texts: [String] = []
        for embed in embeds {
            texts += [embed.title, embed.description, embed.footer?.text].compactMap { $0 }
            texts += (embed.fields ?? []).map(\.value)
        }
        for text in texts {
            #expect(text.unicodeScalars.first?.properties.generalCategory != .nonspacingMark)
            #expect(text.hasSuffix("…"), "cut texts end with an ellipsis")
        }
        #expect(Format.truncate(heavyLine, 10) == String(repeating: Self.zalgo("x", marks: 3), count: 2) + "…")
    }

    @Test func aCutKeepsMarkupWholeOnDiscordAndSlack() throws {
        let long = String(repeating: "Tom & Jerry ", count: 400)  // 4,800 characters
        let reply = Reply(
            text: RichText([
                .plain(String(repeating: "x", count: 1990)), .link("Celeste", url: "https://example.com/c"),
            ]),
            cards: [Card(title: "Notes", description: RichText([.plain("Kept: "), .bold(long)]))])

        let discord = reply.discordMessage { $0 }
        // No room for the whole link: its label is cut, its address kept, or it goes.
        let content = try #require(discord.content)
        #expect(Format.length(content) <= DiscordLimits.content)
        #expect(content.hasSuffix("…](https://example.com/c)") || !content.contains("["), "\(content.suffix(40))")
        let description = try #require(discord.embeds?.first?.description)
        #expect(description.hasPrefix("Kept: **Tom") && description.hasSuffix("…**"), "\(description.suffix(20))")

        let slack =
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(reply.slackMessage())) as? [String: Any]
        let blocks = try #require(slack?["blocks"] as? [[String: Any]])
        let texts = blocks.compactMap { ($0["text"] as? [String: Any])?["text"] as? String }
        let card = try #require(texts.first { $0.hasPrefix("*Notes*") })
        #expect(Format.length(card) <= 3000)
        // Bold closed, and no escape cut in two ("&am…").
        #expect(card.hasSuffix("…*"), "\(card.suffix(20))")
        #expect(card.components(separatedBy: "&").dropFirst().allSatisfy { $0.hasPrefix("amp;") })
    }

    /// Any text cut to any limit fits it, keeps every spoiler closed on Discord and every entity whole on Slack, and
    /// a text that fits is written as it is.
    @Test func anyTextCutToAnyLimitFitsAndKeepsItsMarkup() async {
        let words = ["Hades", "a b", "**", "||", "|", "&", "<b>", "\\", "é", "🎮", "x\u{0301}", " ", "\n", "ok"]
        let word = Gen.element(of: words).array(of: 0...6).map { $0.compactMap { $0 }.joined() }
        let span = zip(Gen<Int>.value(in: 0...6), word).map { kind, text -> RichText.Span in
            switch kind {
            case 0: .bold(text)
            case 1: .spoiler(text)
            case 2: .link(text, url: "https://example.com/\(text.count)")
            case 3: .code(text)
            case 4: .mention("123")
            default: .plain(text)
            }
        }
        await propertyCheck(count: 2000, input: span.array(of: 0...8), Gen<Int>.value(in: 1...60)) { spans, limit in
            let text = RichText(spans)
            let discord = text.discordMarkdown(within: limit)
            #expect(Format.length(discord) <= limit, "\(discord)")
            if Format.length(text.discordMarkdown) <= limit { #expect(discord == text.discordMarkdown) }
            // The words' own bars are escaped (and a code span's are no markup): what is left opens and closes
            // spoilers in pairs.
            let outsideCode = discord.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined()
            let bars = outsideCode.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\|", with: "")
            #expect((bars.components(separatedBy: "||").count - 1) % 2 == 0, "\(discord)")
            let slack = text.slackMrkdwn(within: limit)
            #expect(Format.length(slack) <= limit, "\(slack)")
            #expect(
                slack.components(separatedBy: "&").dropFirst().allSatisfy {
                    $0.hasPrefix("amp;") || $0.hasPrefix("lt;") || $0.hasPrefix("gt;")
                }, "\(slack)")
        }
    }

    @Test func aLeaderboardOfLongNamesFitsDiscord() async throws {
        let harness = try await TestHarness()
        // Thirty-two code points each, the most a nickname may have, from many members.
        let name = String(repeating: "🎮", count: 16) + String(repeating: "*", count: 16)
        try await harness.withClient { client in
            for n in 0..<40 {
                let person = I.Person(id: String(400_000_000_000_000_000 + n), name: "p\(n)")
                _ = try await client.send(
                    I.command("profile", [I.sub("set", [I.option("nickname", name)])], as: person))
                _ = try await client.send(
                    I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")], as: person))
            }
            let board = try await client.send(I.command("leaderboard"))
            DiscordChecks.check(board)
            let embed = try #require(board.embeds.first)
            #expect(Format.length(embed["description"] as? String ?? "") <= DiscordLimits.embedDescription)
            #expect((embed["description"] as? String ?? "").contains("\\*\\*"), "names are markdown-escaped")
        }
    }

    @Test func textWithANulByteIsRefusedAndNothingIsStored() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            let answer = try await client.send(
                I.command("review", [I.option("title", "Celeste"), I.option("text", "Great\u{0}game")]))
            #expect(answer.ephemeral && answer.content.contains("NUL character"), "\(answer.content)")
            let note = try await client.send(
                I.command("note", [I.option("title", "Celeste"), I.option("text", "a\u{0}b")]))
            #expect(note.ephemeral && note.content.contains("NUL character"))
        }
        let celeste = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "26226")))
        let entry = try await harness.services.database.library.entry(
            of: PlayerID("discord:111111111111111111"), game: celeste.id)
        #expect(entry?.review == nil && entry?.note == nil)
    }
}
