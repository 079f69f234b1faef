import Testing

@testable import GGTrackerCore

@Suite("An option's name typed wrong")
struct MistypedOptionTests {
    /// The message with names of commands and options marked as code.
    private func message(of line: String) -> String? {
        do {
            _ = try BotCommand(try TextCommandParser.parse(line))
            return nil
        } catch {
            return error.message.spans.map { span in
                switch span {
                case .code(let text): "`\(text)`"
                default: RichText([span]).plainText
                }
            }.joined()
        }
    }

    @Test(arguments: [
        (
            "/tag title:zelda tag:open world",
            "`/tag` has no option `tag`. Did you mean `/tag title:zelda tags:open world`?"
        ),
        (
            "!gg add Celeste --stauts playing",
            "`/add` has no option `stauts`. Did you mean `/add title:Celeste status:playing`?"
        ),
        ("/rate title:hades scor:9", "`/rate` has no option `scor`. Did you mean `/rate title:hades score:9`?"),
        ("/list stat:completed", "`/list` has no option `stat`. Did you mean `/list status:completed`?"),
        (
            "/progress title:Hades hour:12",
            "`/progress` has no option `hour`. Did you mean `/progress title:Hades hours:12`?"
        ),
        ("!gg add Hades --hour=3", "`/add` has no option `hour`. Did you mean `/add title:Hades hours:3`?"),
    ])
    func theNearestNameIsOfferedInTheWholeCommand(line: String, expected: String) {
        #expect(message(of: line) == expected)
    }

    @Test func aNameNearOneWhoseValueIsWrongIsStillNamed() {
        #expect(message(of: "/list stat:finishedish") == "`/list` has no option `stat`. Did you mean `status`?")
    }

    @Test func wordsBeforeAMemberAreNoOptionOfTheirs() {
        #expect(message(of: "/list genre:rpg") == "`/list` has no option `genre`.")
        #expect(message(of: "!gg stats genre:rpg") == "`/stats` has no option `genre`.")
    }

    @Test(arguments: ["/add title:Re:Zero", "/add title:Tag: The Power of Paint", "/add Halo:Reach status:playing"])
    func titlesWithAColonStayTitles(line: String) throws {
        let invocation = try TextCommandParser.parse(line)
        let title = try #require(invocation.options["title"].map(CommandInvocation.text(of:)))
        #expect(line.contains(title))
    }

    @Test func freeTextMayStartASentenceWithAnyWord() throws {
        let invocation = try TextCommandParser.parse("!gg review Hades --text Note:tiring runs, tag:worth it")
        #expect(invocation.options["text"] == .string("Note:tiring runs, tag:worth it"))
    }

    @Test func aMatrixIDIsAMember() throws {
        let invocation = try TextCommandParser.parse("!gg list @bob:example.org")
        #expect(invocation.options["user"] == .user(UserMention(id: "@bob:example.org")))
    }
}
