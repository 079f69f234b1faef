import Foundation
import Testing

@testable import GGTrackerCore

/// Commands named in a reply's words are retyped for Matrix ("!gg rate") and Slack ("/gg rate"); nothing else is.
@Suite("Commands named in replies, as each platform types them")
struct CommandMentionsTests {
    @Test(arguments: [
        ("/rate title:x score:9", "!gg rate title:x score:9"),
        ("Usage: /rate title:<text>", "Usage: !gg rate title:<text>"),
        ("“/challenge progress amount:”", "“!gg challenge progress amount:”"),
        ("(/help command:add) and /list.", "(!gg help command:add) and !gg list."),
        // Not commands: paths, words after a slash, unknown names, a name continued.
        ("https://x.test/export/abc.csv", "https://x.test/export/abc.csv"),
        ("/u/0f80/recap/2026", "/u/0f80/recap/2026"),
        ("and/or /gg /unknown /adder /add-on /list2", "and/or /gg /unknown /adder /add-on /list2"),
        ("", ""),
    ])
    func commandsAreRetypedAndNothingElse(text: String, matrix: String) {
        #expect(CommandMentions.retyped(text, as: "!gg ") == matrix)
        #expect(CommandMentions.retyped(text, as: "/gg ") == matrix.replacingOccurrences(of: "!gg ", with: "/gg "))
    }

    @Test func proseMarksEachCommandWithItsSubcommandAndOptions() {
        let text = CommandMentions.prose(
            "Progress is added with “/challenge progress amount:”. /import file takes a file; see /activity.")
        #expect(
            text.spans == [
                .plain("Progress is added with “"), .code("/challenge progress amount:"), .plain("”. "),
                .code("/import file"), .plain(" takes a file; see "), .code("/activity"), .plain("."),
            ])
        #expect(
            CommandMentions.prose("No command here, and/or a path /u/x.").spans == [
                .plain("No command here, and/or a path /u/x.")
            ])
    }

    @Test func aReplyIsRetypedInItsWordsButNotInWhatItsButtonsRun() {
        let reply = Reply(
            text: "Add one with \(code: "/add"), or type /add",
            cards: [
                Card(
                    title: "/rate", description: "\(code: "/rate title:Celeste score:9")",
                    fields: [.init("Usage", RichText.block(["/rate title:<text> score:<whole number>"]))],
                    footer: "/help command:<name> explains one command")
            ],
            actions: [[Action("Add", .run(.add, ["title": .string("Celeste")]))]])
        let matrix = reply.typingCommands(as: "!gg ")
        // Plain words may be the user's: only code, blocks, and the card's title and footer (ours) are retyped.
        #expect(matrix.text?.spans == [.plain("Add one with "), .code("!gg add"), .plain(", or type /add")])
        #expect(matrix.cards[0].title == "!gg rate")
        #expect(matrix.cards[0].description?.spans == [.code("!gg rate title:Celeste score:9")])
        #expect(matrix.cards[0].fields[0].value.spans == [.block("!gg rate title:<text> score:<whole number>")])
        #expect(matrix.cards[0].footer == "!gg help command:<name> explains one command")
        #expect(matrix.actions == reply.actions)
    }
}
