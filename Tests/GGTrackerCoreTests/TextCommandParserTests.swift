import Testing

@testable import GGTrackerCore

@Suite("Parsing typed commands")
struct TextCommandParserTests {
    @Test(
        arguments: [
            (
                "/add title:Hollow Knight status:playing", ["add"],
                ["title": OptionValue.string("Hollow Knight"), "status": .string("playing")]
            ),
            (
                "!gg add Hollow Knight --status playing", ["add"],
                ["title": .string("Hollow Knight"), "status": .string("playing")]
            ),
            ("add Celeste --hours=12.5", ["add"], ["title": .string("Celeste"), "hours": .number(12.5)]),
            (
                "/rate title:\"The Witcher 3\" score:9", ["rate"],
                ["title": .string("The Witcher 3"), "score": .integer(9)]
            ),
            ("/wishlist add title:Silksong", ["wishlist", "add"], ["title": .string("Silksong")]),
            ("!gg wishlist show @bob", ["wishlist", "show"], ["user": .user(UserMention(id: "bob"))]),
            (
                "/list user:@123456 status:completed sort:score", ["list"],
                [
                    "user": .user(UserMention(id: "123456")), "status": .string("completed"), "sort": .string("score"),
                ]
            ),
            (
                "/review title:igdb:1942 text:Great game, status: perfect", ["review"],
                [
                    "title": .string("igdb:1942"), "text": .string("Great game, status: perfect"),
                ]
            ),
            // Free text runs to the end of the line, but for other options written last, one word each.
            (
                "/review title:Celeste text:The summit is ||Madeline's mom|| spoiler:true", ["review"],
                [
                    "title": .string("Celeste"), "text": .string("The summit is ||Madeline's mom||"),
                    "spoiler": .boolean(true),
                ]
            ),
            (
                "!gg review Celeste --text \"Great climb\" --spoiler", ["review"],
                ["title": .string("Celeste"), "text": .string("Great climb"), "spoiler": .boolean(true)]
            ),
            (
                "!gg review Celeste --text Great climb --spoiler false", ["review"],
                ["title": .string("Celeste"), "text": .string("Great climb"), "spoiler": .boolean(false)]
            ),
            (
                "!gg review Celeste --text Chapter 7 --spoiler on", ["review"],
                ["title": .string("Celeste"), "text": .string("Chapter 7"), "spoiler": .boolean(true)]
            ),
            (
                "!gg review Celeste --text It was --spoiler-free true", ["review"],
                ["title": .string("Celeste"), "text": .string("It was --spoiler-free true")]
            ),
            (
                "/review title:Hades text:I'd give it score:10 http://x.test/a", ["review"],
                ["title": .string("Hades"), "text": .string("I'd give it score:10 http://x.test/a")]
            ),
            (
                "/profile set bio:Metroidvanias forever nickname:Ada", ["profile", "set"],
                ["bio": .string("Metroidvanias forever"), "nickname": .string("Ada")]
            ),
            ("/admin catalog refresh mode:full", ["admin", "catalog", "refresh"], ["mode": .string("full")]),
            (
                "/admin settings announce_channel:#42 age_gate:off", ["admin", "settings"],
                [
                    "announce_channel": .channel("42"), "age_gate": .string("off"),
                ]
            ),
            ("/help", ["help"], [:]),
            (
                "/search query:zelda genre:Adventure", ["search"],
                ["query": .string("zelda"), "genre": .string("Adventure")]
            ),
        ] as [(String, [String], [String: OptionValue])])
    func parsesIntoTheSameInvocationAsDiscord(line: String, path: [String], options: [String: OptionValue]) throws {
        let invocation = try TextCommandParser.parse(line)
        #expect(invocation.path == path)
        #expect(invocation.options == options)
        _ = try BotCommand(invocation)
    }

    @Test(arguments: [
        ("/dance", "Unknown command `dance`. `/help` lists them all."),
        // A mistyped command name gets the nearest ones.
        ("/lst", "Unknown command `lst`. Did you mean `/list`?"),
        ("!gg serch zelda", "Unknown command `serch`. Did you mean `/search`?"),
        ("/gg leader", "Did you mean `/leaderboard`?"),
        // Another word for a command is offered first, before names spelled alike.
        ("/library", "Unknown command `library`. Did you mean `/list`?"),
        ("!gg feed", "Unknown command `feed`. Did you mean `/activity`?"),
        ("/Delete Hades", "Did you mean `/remove`?"),
        ("/rating Hades 8", "Did you mean `/rate`?"),
        ("/help command:wrapped", "There is no command `wrapped`. Did you mean `/recap`?"),
        // Words after a group without its subcommand are offered with the one they were likely meant for.
        (
            "!gg wishlist Hades",
            "`/wishlist` needs a subcommand: add, remove, show. Did you mean `/wishlist add title:Hades`?"
        ),
        ("!gg browse genre:RPG", "Did you mean `/browse genre name:RPG`?"),
        ("!gg challenge Winter Sprint", "Did you mean `/challenge show name:Winter Sprint`?"),
        ("!gg friend bob", "Did you mean `/friend add user:"),
        ("!gg browse RPG", "`/browse` needs a subcommand: genre, platform, mode, engine."),
        // An option's name typed without its colon, where the text is no title.
        ("!gg profile set bio I love RPGs", "`bio` is an option: did you mean `/profile set bio:I love RPGs`?"),
        // Several values after a title, a unit apart from its number, an option's name before its value.
        ("!gg progress Hades 20h 100%", "Did you mean `/progress title:Hades hours:20 percent:100`?"),
        ("!gg progress Hades 20 hours", "Did you mean `/progress title:Hades hours:20`?"),
        (
            "!gg progress Hades status completed 30 hrs",
            "Did you mean `/progress title:Hades status:completed hours:30`?"
        ),
        // A title that is only a status names no game.
        (
            "!gg add playing",
            "`/add` needs `title`: the game. “playing” is a `status`: `/add title:<game> status:playing`."
        ),
        ("/progress Completed", "“Completed” is a `status`: `/progress title:<game> status:completed`."),
        ("!gg profile set nickname Ace", "`nickname` is an option: did you mean `/profile set nickname:Ace`?"),
        ("/help command:revew", "There is no command `revew`. Did you mean `/review`?"),
        ("/rate title:Celeste score:11", "`score` must be between 1 and 10."),
        ("/rate title:Celeste score:nine", "`score` must be a whole number"),
        // Too short to tell, or the start of two choices: refused with the list.
        ("/progress title:Celeste status:p", "`status` must be one of: backlog, playing, paused, completed, dropped"),
        ("/list sort:sc", "`sort` must be one of: recent, score, hours, name (got “sc”)."),
        // Two members where one goes: left whole for the member look-up to refuse; words no option takes, refused.
        ("!gg leaderboard hours fortnight", "`metric` must be one of: completed, hours, reviews, score_count"),
        ("/progress title:Celeste status:pa", "`status` must be one of"),
        // A unit the option does not take is refused as before.
        ("/progress title:Celeste hours:12%", "`hours` must be a number (got “12%”)."),
        ("/rate title:Celeste score:8/100", "`score` must be a whole number (got “8/100”)."),
        ("/rate title:Celeste", "`/rate` needs `score`: 1 to 10; shown as five stars."),
        // What the option is, without Discord's picker: "type to search" is for the menu, not a typed command.
        ("!gg note", "`/note` needs `title`: the game."),
        // A value written last in the free text, without its name, is offered back as the option, never run.
        (
            "!gg rate Celeste 9",
            "needs `score`: 1 to 10; shown as five stars. Did you mean `/rate title:Celeste score:9`?"
        ),
        // Several values typed in order without their names: each goes to the option it fits, the last first.
        (
            "!gg challenge create Spring Fling 5 games_completed 2027-03-01",
            "Did you mean `/challenge create name:Spring Fling goal:5 unit:games_completed ends:2027-03-01`?"
        ),
        // A date that is not one is told as a date, not by its length.
        (
            "/challenge create name:Odd goal:5 unit:custom ends:next fortnight",
            "`ends` must be a day: 2030-05-31, Dec 31, tomorrow, friday or in 2 weeks (got “next fortnight”)."
        ),
        ("/challenge create name:Odd goal:5 unit:custom ends:2027-02-30", "must be a day: 2030-05-31"),
        ("/import file", "`/import file` needs `file`: the CSV file (at most 5 MB)."),
        ("/add title:Celeste status:won", "`status` must be one of: backlog, playing, paused, completed, dropped"),
        ("/progress title:Celeste", "Give at least one of `status`, `hours` or `percent`."),
        ("/progress title:Celeste hours:-1", "`hours` must be between 0 and 20000."),
        ("/progress title:Celeste percent:150", "`percent` must be between 0 and 100."),
        ("/browse", "`/browse` needs a subcommand: genre, platform, mode, engine."),
        ("/admin", "`/admin` needs a subcommand: catalog, settings."),
        // A mistyped subcommand is named with the nearest one.
        ("!gg wishlist ad Hollow Knight", "`/wishlist` has no subcommand `ad`. Did you mean `/wishlist add`?"),
        ("/gg challenge jion winter", "Did you mean `/challenge join`?"),
        ("/wishlist buy title:x", "`/wishlist` needs a subcommand"),
        ("/tag title:Hades tags:,,", "Give tags separated by commas"),
        ("/remove title:Hades confirm:maybe", "`confirm` must be true or false."),
        ("/activity page:2", "`/activity` has no option `page`."),
        ("/profile set avatar:http://example.com/a.png", "`avatar` must be an https:// image URL."),
        ("/note title:Hades text:" + String(repeating: "x", count: 1001), "the limit is 1000"),
        ("", "Type a command"),
    ])
    func badInputGetsAClearMessage(line: String, message: String) {
        #expect {
            try BotCommand(try TextCommandParser.parse(line))
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            // Names of commands and options are set as code.
            let marked = usage.message.spans.map { span in
                switch span {
                case .code(let text): "`\(text)`"
                default: RichText([span]).plainText
                }
            }.joined()
            return marked.contains(message)
        }
    }

    @Test func buttonsMaySetHiddenOptions() throws {
        let invocation = try TextCommandParser.parse("/remove title:igdb:1 confirm:true", fromComponent: true)
        #expect(
            try BotCommand(invocation) == .library(.remove(.ref(GameRef(provider: "igdb", id: "1")), confirmed: true)))
    }

    @Test func commandLineRoundTrips() throws {
        let invocation = try TextCommandParser.parse("/progress title:Hollow Knight hours:12.5 percent:40")
        let again = try TextCommandParser.parse(invocation.commandLine)
        #expect(again == invocation)
    }

    @Test func tagsAreLowerCasedAndSplit() throws {
        let command = try BotCommand(try TextCommandParser.parse("/tag title:Hades tags:Roguelike, Couch Co-op, -old"))
        #expect(
            command
                == .library(.tag(.text("Hades"), changes: [.add("roguelike"), .add("couch co-op"), .remove("old")])))
    }

    /// Every command's documented examples parse and type, so `/help` never shows a command that fails.
    @Test(arguments: CommandName.allCases)
    func everyDocumentedExampleParses(command: CommandName) throws {
        let examples = command.spec.examples.isEmpty ? ["/\(command.rawValue)"] : command.spec.examples
        for example in examples {
            let typed = try BotCommand(try TextCommandParser.parse(example))
            #expect(typed.name == command.rawValue, "\(example)")
        }
    }

    @Test(arguments: [
        ("/game title:local:17", BotCommand.catalog(.game(.ref(GameRef(provider: "local", id: "17"))))),
        ("/top genre:Shooter year:1993 page:2", .catalog(.top(genre: "Shooter", platform: nil, year: 1993, page: 2))),
        ("/browse engine name:Unreal Engine 4", .catalog(.browse(.engine, name: "Unreal Engine 4", page: 1))),
        (
            "/progress title:Hades status:completed",
            .library(.progress(.text("Hades"), status: .completed, hours: nil, percent: nil))
        ),
        // A choice typed as people say it: its start, other words for it, spaces for underscores.
        (
            "!gg progress Hades status:comp",
            .library(.progress(.text("Hades"), status: .completed, hours: nil, percent: nil))
        ),
        (
            "!gg progress Hades --status finished",
            .library(.progress(.text("Hades"), status: .completed, hours: nil, percent: nil))
        ),
        ("/gg leaderboard metric:score period:mon", .social(.leaderboard(.scoreCount, .month))),
        // A word that is one of a choice of the command's, where a member could go, is that choice.
        ("!gg list completed", .library(.list(user: nil, status: .completed, sort: .recent, page: 1))),
        ("!gg list status:done", .library(.list(user: nil, status: .completed, sort: .recent, page: 1))),
        ("!gg list score", .library(.list(user: nil, status: nil, sort: .score, page: 1))),
        ("!gg list bob", .library(.list(user: UserMention(id: "bob"), status: nil, sort: .recent, page: 1))),
        // Several such words, each to the option it fits; a member by what is left.
        (
            "!gg list bob completed",
            .library(.list(user: UserMention(id: "bob"), status: .completed, sort: .recent, page: 1))
        ),
        ("!gg list on hold", .library(.list(user: nil, status: .paused, sort: .recent, page: 1))),
        // A whole number in a narrow range is the year or the page, not a member.
        ("!gg recap 2025", .social(.recap(user: nil, year: 2025))),
        ("!gg recap bob 2025", .social(.recap(user: UserMention(id: "bob"), year: 2025))),
        ("!gg list bob 2", .library(.list(user: UserMention(id: "bob"), status: nil, sort: .recent, page: 2))),
        ("!gg recap @42", .social(.recap(user: UserMention(id: "42"), year: nil))),
        ("!gg add: Hades", .library(.add(.text("Hades"), status: .backlog, hours: nil))),
        ("!gg stats?", .social(.stats(user: nil))),
        ("!gg top 2020", .catalog(.top(genre: nil, platform: nil, year: 2020, page: 1))),
        ("!gg top rpg 2020", .catalog(.top(genre: "rpg", platform: nil, year: 2020, page: 1))),
        ("!gg top nintendo 64", .catalog(.top(genre: "nintendo 64", platform: nil, year: nil, page: 1))),
        // After a name, a small number is the name's own, never a page.
        ("!gg browse platform playstation 2", .catalog(.browse(.platform, name: "playstation 2", page: 1))),
        ("!gg leaderboard hours week", .social(.leaderboard(.hours, .week))),
        ("!gg gamenight coop 3h", .social(.gameNight(.start, mode: .coop, maxHours: 3, night: nil))),
        ("!gg gamenight 2,5h multi", .social(.gameNight(.start, mode: .multiplayer, maxHours: 2.5, night: nil))),
        // A yes/no option named alone is yes.
        ("!gg share revoke", .social(.share(revoke: true))),
        ("!gg share", .social(.share(revoke: false))),
        ("!gg leaderboard metric:score count", .social(.leaderboard(.scoreCount, .all))),
        // Numbers typed with their unit, as people write them.
        (
            "!gg progress Hades hours:12h percent:50%",
            .library(.progress(.text("Hades"), status: nil, hours: 12, percent: 50))
        ),
        (
            "!gg progress Hades --hours 3.5 hrs",
            .library(.progress(.text("Hades"), status: nil, hours: 3.5, percent: nil))
        ),
        ("!gg rate Hades score:8/10", .library(.rate(.text("Hades"), score: 8))),
        ("/favorite title:gb:3030-20545", .library(.favorite(.ref(GameRef(provider: "gb", id: "3030-20545"))))),
        ("/note title:Hades", .library(.note(.text("Hades"), text: nil, clear: false))),
        ("/note title:Hades clear:true", .library(.note(.text("Hades"), text: nil, clear: true))),
        ("/remove title:Hades", .library(.remove(.text("Hades"), confirmed: false))),
        ("/remove title:Hades confirm:true", .library(.remove(.text("Hades"), confirmed: true))),
        ("!gg remove Hades --confirm", .library(.remove(.text("Hades"), confirmed: true))),
        ("/gg account delete --confirm", .info(.accountDelete(confirmed: true))),
        ("/wishlist remove title:Hades", .library(.wishlistRemove(.text("Hades")))),
        ("/profile show", .social(.profileShow(user: nil))),
        ("/stats user:@42", .social(.stats(user: UserMention(id: "42")))),
        ("/about", .info(.about)),
        ("/account delete", .info(.accountDelete(confirmed: false))),
        ("/admin catalog status", .info(.adminCatalogStatus)),
        ("/help command:review", .info(.help(.review))),
        ("!gg help wishlist add", .info(.help(.wishlist))),
        // A group alone shows what it can without more words.
        ("!gg wishlist", .library(.wishlistShow(user: nil, page: 1))),
        ("/gg profile", .social(.profileShow(user: nil))),
        ("!gg friend", .social(.friendList)),
        ("!gg challenge", .social(.challengeShow(name: nil))),
    ])
    func typesEachCommand(line: String, expected: BotCommand) throws {
        #expect(try BotCommand(try TextCommandParser.parse(line)) == expected)
    }

    @Test func everyCommandHasAUsageAndNoDuplicateOptions() {
        for command in CommandName.allCases {
            let spec = command.spec
            #expect(!spec.summary.isEmpty && spec.summary.count <= 100)
            #expect(!spec.usage(prefix: "/" + spec.name).isEmpty)
            #expect(Set(spec.options.map(\.name)).count == spec.options.count)
        }
        // A value with a form shows the form.
        let create = CommandName.challenge.spec.subcommand("create")!
        #expect(create.usage(prefix: "/challenge create").hasSuffix(" ends:<YYYY-MM-DD>"))
    }
}

@Suite("Formatting")
struct FormatTests {
    @Test(arguments: [(10, "★★★★★"), (7, "★★★½☆"), (1, "½☆☆☆☆"), (2, "★☆☆☆☆"), (9, "★★★★½")])
    func scoresShowAsFiveStarsWithHalves(score: Int, stars: String) {
        #expect(Format.stars(score) == stars)
    }

    @Test func countsAndHoursSetTheirThousandsApart() {
        #expect(Format.number(0) == "0" && Format.number(999) == "999" && Format.number(1000) == "1,000")
        #expect(Format.number(35_435) == "35,435" && Format.number(1_234_567) == "1,234,567")
        #expect(Format.number(-1200) == "-1,200")
        #expect(Format.count(1, "game") == "1 game" && Format.count(8067, "game") == "8,067 games")
        #expect(
            Format.hours(12_000) == "12,000 h" && Format.hours(1234.5) == "1,234.5 h" && Format.hours(2.25) == "2.3 h")
    }

    @Test func truncateEndsWithAnEllipsis() {
        #expect(Format.truncate("abcdef", 4) == "abc…")
        #expect(Format.truncate("abc", 4) == "abc")
    }
}

@Suite("Choosing a game from free text")
struct PickTests {
    func hit(
        _ id: Int64, _ name: String, score: Double, all: Bool = true, covers: Bool? = nil, exact: Bool = false,
        popularity: Double = 0, type: String? = nil
    ) -> SearchHit {
        SearchHit(
            game: Game(id: id, ref: GameRef(provider: "igdb", id: "\(id)"), name: name, gameType: type), score: score,
            matchedAllWords: all, exactName: exact, coversQuery: covers ?? all, popularity: popularity)
    }

    @Test func aSingleExactNameWins() {
        let pick = TitlePick.fromCatalog([hit(1, "Hades", score: 50, exact: true), hit(2, "Hades II", score: 49)])
        #expect(pick == .one(hit(1, "Hades", score: 50).game))
    }

    @Test func namesakesWithoutAClearFavouriteAsk() {
        let pick = TitlePick.fromCatalog([
            hit(1, "Doom", score: 60, exact: true, popularity: 8.8),
            hit(2, "Doom", score: 58, exact: true, popularity: 8.4),
        ])
        guard case .ambiguous(let games) = pick else { Issue.record("expected a question"); return }
        #expect(games.map(\.id) == [1, 2])
    }

    @Test func aNamesakeWithTenTimesTheRatingsWins() {
        let pick = TitlePick.fromCatalog([
            hit(2, "Portal", score: 58, exact: true, popularity: 0.8),
            hit(1, "Portal", score: 60, exact: true, popularity: 7.9),
        ])
        #expect(pick == .one(hit(1, "Portal", score: 0).game))
    }

    @Test func mainGamesComeBeforeTheirPortsAmongNamesakes() {
        let pick = TitlePick.fromCatalog([
            hit(2, "BioShock", score: 70, exact: true, popularity: 6, type: "Port"),
            hit(1, "BioShock", score: 60, exact: true, popularity: 5.5, type: "Main Game"),
        ])
        #expect(pick == .one(hit(1, "BioShock", score: 0, type: "Main Game").game))
    }

    @Test func aClearLeaderWinsAndACloseSecondAsks() {
        #expect(
            TitlePick.fromCatalog([hit(1, "A", score: 50), hit(2, "B", score: 30)])
                == .one(hit(1, "A", score: 50).game))
        guard case .ambiguous = TitlePick.fromCatalog([hit(1, "A", score: 50), hit(2, "B", score: 48)]) else {
            Issue.record("expected a question")
            return
        }
    }

    @Test func typoCorrectedMatchesCountWhenTheyCoverTheQuery() {
        let corrected = TitlePick.fromCatalog([
            hit(1, "Hollow Knight", score: 50, all: false, covers: true), hit(2, "Hollow", score: 30, covers: false),
        ])
        #expect(corrected == .one(hit(1, "Hollow Knight", score: 0).game))
        let partial = TitlePick.fromCatalog([hit(1, "A", score: 30, all: false), hit(2, "B", score: 29, all: false)])
        guard case .none(let suggestions) = partial else { Issue.record("expected suggestions"); return }
        #expect(suggestions.count == 2)
        #expect(TitlePick.fromCatalog([]) == .none(suggestions: []))
    }

    @Test func aNameMatchedOnlyThroughCorrectionsIsOfferedNotTaken() {
        let guess = [hit(1, "Astro Bot", score: 40, all: false, covers: true), hit(2, "Bot Vice", score: 20)]
        let onlyCorrected = guess.enumerated().map { index, hit in
            var hit = hit
            hit.onlyCorrected = index == 0
            return hit
        }
        guard case .none(let offered) = TitlePick.fromCatalog(onlyCorrected) else {
            Issue.record("a guess should be offered")
            return
        }
        #expect(offered.map(\.id) == [1, 2])
        #expect(TitlePick.fromCatalog(onlyCorrected, acceptingGuesses: true) == .one(guess[0].game))
    }

    @Test func theCallersShelvesDecideWhenOneGameMatches() {
        #expect(TitlePick.fromShelves([]) == nil)
        #expect(TitlePick.fromShelves([hit(1, "Portal", score: 40)]) == .one(hit(1, "Portal", score: 0).game))
        let two = TitlePick.fromShelves([
            hit(1, "Portal 2", score: 40), hit(2, "Portal", score: 50, exact: true),
        ])
        #expect(two == .one(hit(2, "Portal", score: 0).game))
        guard
            case .ambiguous(let games) = TitlePick.fromShelves([
                hit(1, "A b", score: 40), hit(2, "A c", score: 40),
            ])
        else { Issue.record("expected a question"); return }
        #expect(games.count == 2)
    }
}

@Suite("A missing option guessed from the end of the free text")
struct MissingOptionGuessTests {
    func message(_ line: String) -> String {
        do {
            _ = try BotCommand(try TextCommandParser.parse(line))
            return ""
        } catch {
            return error.message.plainText
        }
    }

    @Test(arguments: [
        ("!gg rate Celeste 9", "Did you mean /rate title:Celeste score:9?"),
        ("!gg progress Hades completed", "Did you mean /progress title:Hades status:completed?"),
        ("/gg rate hollow knight 10", "Did you mean /rate title:hollow knight score:10?"),
        ("!gg rate Celeste 9/10", "Did you mean /rate title:Celeste score:9?"),
        ("!gg progress Portal 2 50%", "Did you mean /progress title:Portal 2 percent:50?"),
        ("!gg progress Portal 2 12h", "Did you mean /progress title:Portal 2 hours:12?"),
        // A value offered back is read as the same value typed with its name is: a decimal comma too.
        ("!gg progress Portal 2 1,5h", "Did you mean /progress title:Portal 2 hours:1.5?"),
        // A day written in words is one value.
        (
            "!gg challenge create Summer Fun 5 custom Dec 31",
            "Did you mean /challenge create name:Summer Fun goal:5 unit:custom ends:Dec 31?"
        ),
        (
            "!gg challenge create Summer 5 custom in 2 weeks",
            "Did you mean /challenge create name:Summer goal:5 unit:custom ends:in 2 weeks?"
        ),
    ])
    func aValidLastWordIsOffered(line: String, offered: String) {
        let text = message(line)
        #expect(text.contains(offered), "\(text)")
    }

    @Test(arguments: [
        // Out of range, no word left for the title, or a command still missing other options: nothing offered.
        "!gg rate Celeste 11", "!gg rate 9", "!gg rate Celeste", "/gg challenge create Winter 3",
    ])
    func nothingIsOfferedThatWouldNotWork(line: String) {
        let text = message(line)
        #expect(text.contains("needs") && !text.contains("Did you mean"), "\(text)")
    }

    /// A number typed where a score goes but not one it takes says what was made of it and what the option takes.
    @Test(arguments: ["8.5", "4/5", "11"])
    func aNumberTheOptionDoesNotTakeIsNamed(score: String) {
        let text = message("!gg rate Celeste \(score)")
        #expect(
            text.hasSuffix("“\(score)” was read as part of the title: score takes a whole number from 1 to 10."),
            "\(text)")
        #expect(!message("!gg rate Celeste").contains("read as part of the title"))
        // Named as the option it was read into.
        let goal = message("!gg challenge create Summer custom 2027-01-01 4/5")
        #expect(goal.hasSuffix("“4/5” was read as part of the name: goal takes a number."), "\(goal)")
    }

    /// A number without its unit ending a title may be part of the name ("Portal 2"): not offered as a value, unless
    /// a status comes right before it.
    @Test func aBareNumberEndingATitleIsNotTakenForAValue() {
        let text = message("!gg progress Portal 2")
        #expect(text.contains("Give at least one of") && !text.contains("Did you mean"), "\(text)")
        // After a status it is no part of the name: the first number option, hours (a percent is typed with "%").
        let after = message("!gg progress Hades completed 40")
        #expect(after.contains("Did you mean /progress title:Hades status:completed hours:40?"), "\(after)")
        let percent = message("!gg progress Hades playing 40%")
        #expect(percent.contains("Did you mean /progress title:Hades status:playing percent:40?"), "\(percent)")
    }
}
