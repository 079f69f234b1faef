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
            // The name of the option the words go to anyway, typed before them without its colon, is left out.
            ("!gg profile set nickname Ace", ["profile", "set"], ["nickname": .string("Ace")]),
            (
                "!gg challenge create name Long Haul goal:5 unit:custom ends:2030-01-31", ["challenge", "create"],
                [
                    "name": .string("Long Haul"), "goal": .number(5), "unit": .string("custom"),
                    "ends": .string("2030-01-31"),
                ]
            ),
            ("/admin catalog refresh mode:full", ["admin", "catalog", "refresh"], ["mode": .string("full")]),
            (
                "/admin settings announce_channel:#42 age_gate:off", ["admin", "settings"],
                [
                    "announce_channel": .channel("42"), "age_gate": .string("off"),
                ]
            ),
            ("/help", ["help"], [:]),
            // A quoted title says where the name ends: the words after it are the other options, run as typed.
            ("!gg rate \"Portal 2\" 8", ["rate"], ["title": .string("Portal 2"), "score": .integer(8)]),
            (
                "/gg add “Hollow Knight” playing 5h", ["add"],
                ["title": .string("Hollow Knight"), "status": .string("playing"), "hours": .number(5)]
            ),
            (
                "!gg progress \"Hades\" 12 50%", ["progress"],
                ["title": .string("Hades"), "hours": .number(12), "percent": .integer(50)]
            ),
            ("!gg remove \"Celeste\" confirm", ["remove"], ["title": .string("Celeste"), "confirm": .boolean(true)]),
            (
                "!gg review \"Hades\" Loved it, 10/10", ["review"],
                ["title": .string("Hades"), "text": .string("Loved it, 10/10")]
            ),
            (
                "!gg tag \"Hades\" roguelike, co-op", ["tag"],
                ["title": .string("Hades"), "tags": .string("roguelike, co-op")]
            ),
            ("!gg game \"Portal 2\"", ["game"], ["title": .string("Portal 2")]),
            // A phone's smart punctuation makes `--` a long dash: before an option's name it is still `--`.
            (
                "!gg add Hades —status playing –hours=3", ["add"],
                ["title": .string("Hades"), "status": .string("playing"), "hours": .number(3)]
            ),
            (
                "!gg review Hades —text Loved it — truly —spoiler", ["review"],
                ["title": .string("Hades"), "text": .string("Loved it — truly"), "spoiler": .boolean(true)]
            ),
            // A quote inside a name is no quoted title: the whole text is the title.
            ("!gg add Assassin's Creed II", ["add"], ["title": .string("Assassin's Creed II")]),
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
        ("/dance", "Unknown command `dance`. `/help` lists them all; to look a game up, `/search query:dance`."),
        ("!gg 123", "Unknown command `123`. `/help` lists them all."),
        ("!gg beat Celeste", "Unknown command `beat`. Did you mean `/progress title:Celeste status:completed`?"),
        // Who here has a game: its card says.
        ("!gg who has stardew valley?", "Unknown command `who`. Did you mean `/game title:stardew valley`?"),
        ("!gg anyone playing hades", "Unknown command `anyone`. Did you mean `/game title:hades`?"),
        ("!gg what is @BobK playing?", "Did you mean `/list user:@BobK status:playing`?"),
        ("!gg what am I playing", "Unknown command `what`. Did you mean `/list status:playing`?"),
        ("!gg what should I play next?", "Unknown command `what`. Did you mean `/list status:backlog`?"),
        ("!gg what should we play tonight", "Unknown command `what`. Did you mean `/gamenight`?"),
        // A state alone: the caller's games in it.
        ("!gg playing", "Unknown command `playing`. Did you mean `/list status:playing`?"),
        ("!gg backlog", "Unknown command `backlog`. Did you mean `/list status:backlog`?"),
        ("!gg finished", "Unknown command `finished`. Did you mean `/list status:completed`?"),
        // A mistyped command name gets the nearest ones.
        ("/lst", "Unknown command `lst`. Did you mean `/list`?"),
        ("!gg serch zelda", "Unknown command `serch`. Did you mean `/search query:zelda`?"),
        ("/gg leader", "Did you mean `/leaderboard`?"),
        // Another word for a command is offered first, before names spelled alike.
        ("/library", "Unknown command `library`. Did you mean `/list`?"),
        ("!gg feed", "Unknown command `feed`. Did you mean `/activity`?"),
        ("!gg alerts", "Unknown command `alerts`. Did you mean `/upcoming`?"),
        ("/Delete Hades", "Did you mean `/remove title:Hades`?"),
        ("/rating Hades 8", "Did you mean `/rate title:Hades score:8`?"),
        // Several near names: each named, nothing to run.
        ("!gg pro", "Did you mean `/progress` or `/profile`?"),
        ("/help command:wrapped", "There is no command `wrapped`. Did you mean `/recap`?"),
        // Words after a group without its subcommand are offered with the one they were likely meant for.
        (
            "!gg wishlist Hades",
            "`/wishlist` needs a subcommand: add, remove, show. Did you mean `/wishlist add title:Hades`?"
        ),
        ("!gg wishlist of bob", "Did you mean `/wishlist show user:@bob`?"),
        ("!gg wishlist for honor", "Did you mean `/wishlist add title:for honor`?"),
        ("!gg profile for bob", "Did you mean `/profile show user:@bob`?"),
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
        // A number after its option's name, or joined to it by "=".
        ("!gg progress Hades hours 20", "Did you mean `/progress title:Hades hours:20`?"),
        ("!gg progress Portal 2 percent 50", "Did you mean `/progress title:Portal 2 percent:50`?"),
        ("!gg progress Hades hours=20", "Did you mean `/progress title:Hades hours:20`?"),
        ("!gg rate Celeste score=9", "Did you mean `/rate title:Celeste score:9`?"),
        // A title that is only a status names no game.
        (
            "!gg add playing",
            "`/add` needs `title`: the game. “playing” is a `status`: `/add title:<game> status:playing`."
        ),
        ("/add Completed", "“Completed” is a `status`: `/add title:<game> status:completed`."),
        ("/help command:revew", "There is no command `revew`. Did you mean `/review`?"),
        ("/rate title:Celeste score:11", "`score` must be between 1 and 10."),
        ("/rate title:Celeste score:nine", "`score` must be a whole number"),
        // Too short to tell, or the start of two choices: refused with the list.
        ("/progress title:Celeste status:p", "`status` must be one of: backlog, playing, paused, completed, dropped"),
        ("/list sort:sc", "`sort` must be one of: recent, score, hours, name (got “sc”)."),
        ("/progress title:Celeste status:pa", "`status` must be one of"),
        // A unit the option does not take is refused as before.
        ("/progress title:Celeste hours:12%", "`hours` must be a number (got “12%”)."),
        ("/rate title:Celeste score:8/100", "`score` must be a whole number (got “8/100”)."),
        // What the option is, without Discord's picker: "type to search" is for the menu, not a typed command.
        ("!gg wishlist add", "`/wishlist add` needs `title`: the game."),
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
        // Words spread over options: the one that fits none is named with the option left open.
        ("!gg leaderboard hours fortnight", "`period` must be one of: week, month, all (got “fortnight”)."),
        ("/add title:Celeste hours:-1", "`hours` must be between 0 and 20000."),
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
        (
            "!gg add \"Celeste\" banana",
            "After the title “Celeste”, “banana” is no value `/add` takes: give each option by name"
        ),
        ("!gg rate \"Portal 2\" 11", "After the title “Portal 2”, “11” is no value `/rate` takes"),
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

    /// A shelf named at the end of the line is the command for it: the wishlist's, or the library's as typed.
    @Test(arguments: [
        ("!gg add Tears of the Kingdom to my wishlist", "/wishlist add title:Tears of the Kingdom"),
        ("!gg add Portal to wishlist", "/wishlist add title:Portal"),
        ("!gg add Hades II wishlist", "/wishlist add title:Hades II"),
        ("!gg wishlist add Celeste to my wish list", "/wishlist add title:Celeste"),
        ("!gg remove Hades from my wishlist", "/wishlist remove title:Hades"),
        ("!gg remove Hades from my library", "/remove title:Hades"),
        ("!gg add Hades to my library", "/add title:Hades"),
        ("!gg add Hades to my collection.", "/add title:Hades"),
        // Not a shelf's end: the line as typed.
        ("!gg add wishlist", "/add title:wishlist"), ("!gg add my library", "/add title:my library"),
        ("!gg add Hades library", "/add title:Hades library"),
        ("!gg remove Hades wishlist", "/remove title:Hades wishlist"),
    ])
    func aShelfNamedLastIsTheCommandForIt(line: String, meant: String) throws {
        #expect(try TextCommandParser.parse(line).commandLine == meant)
    }

    /// A mistyped command or subcommand with the one name it was likely meant for offers the whole line as that
    /// command, to run with a button; nothing is offered where no name or several are near.
    @Test(arguments: [
        ("!gg serch zelda", "/search query:zelda"), ("!gg lst", "/list"),
        ("!gg wishlist ad Hollow Knight", "/wishlist add title:Hollow Knight"),
        ("/gg challenge jion winter", "/challenge join name:winter"),
        // A name like no command's is likely a game's, and offered as a search; a number is neither.
        ("!gg hades", "/search query:hades"), ("!gg the witcher 3", "/search query:the witcher 3"), ("!gg 123", nil),
        // The command's own guess for what follows is the one offered, and nothing where it would only be refused.
        ("!gg prgress hades 50%", "/progress title:hades percent:50"),
        ("!gg prgress hades", "/progress title:hades"),
        // A status typed as the command is the progress it means.
        ("!gg finished celeste", "/progress title:celeste status:completed"),
        ("!gg beat hollow knight", "/progress title:hollow knight status:completed"),
        ("!gg playing hades 10h", "/progress title:hades status:playing hours:10"),
        ("!gg dropped portal 2", "/progress title:portal 2 status:dropped"),
        // A game's name, then hours or a percent with their unit: its progress ("played" before it too).
        ("!gg hades 3h", "/progress title:hades hours:3"),
        ("!gg stardew valley 12 hours", "/progress title:stardew valley hours:12"),
        ("!gg celeste +10%", "/progress title:celeste add_percent:10"),
        ("!gg played hades 3h", "/progress title:hades hours:3"),
        ("!gg fav elden ring", "/favorite title:elden ring"),
        // A word that undoes a command is the command that undoes, not the one it is spelled like.
        ("!gg unfollow bob", "/friend remove user:@bob"), ("!gg unfriend bob", "/friend remove user:@bob"),
        // Another word for a group is its subcommand meant ("follow" is `/friend add`).
        ("!gg follow bob", "/friend add user:@bob"), ("!gg want silksong", "/wishlist add title:silksong"),
        // Words before a year typed to `/top` are no genre.
        ("!gg best games of 2019", "/top year:2019"), ("!gg best rpg games from 2019", "/top genre:rpg year:2019"),
        ("!gg unwishlist silksong", "/wishlist remove title:silksong"),
        ("!gg untag hades roguelike", "/tag title:hades tags:-roguelike"),
        ("!gg untag hades co-op, hard", "/tag title:hades tags:-co-op, -hard"),
        ("!gg unfavorite hades", "/favorite title:hades"), ("!gg unfav hades", "/favorite title:hades"),
        // A score after `/add`'s title: `/rate` adds the game as completed with it.
        ("!gg add Celeste completed 9/10", "/rate title:Celeste score:9"),
        ("!gg add Celeste 4.5 stars", "/rate title:Celeste score:9"),
        ("!gg add Celeste 8 out of 10", "/rate title:Celeste score:8"),
    ])
    func aMistypedNameOffersTheWholeCommand(line: String, meant: String?) {
        #expect {
            try TextCommandParser.parse(line)
        } throws: { error in
            (error as? UsageError)?.meant?.commandLine == meant
        }
    }

    /// Words after a name like a command's may be a game's name ("Tom Clancy's …" is one letter off `/top`): the
    /// search for them is offered beside the command, with a button of its own; alone where no command works.
    @Test(arguments: [
        ("!gg tom clancy's rainbow six", "/top genre:clancy's rainbow six", "/search query:tom clancy's rainbow six"),
        ("!gg pro evolution soccer", "/search query:pro evolution soccer", "/search query:pro evolution soccer"),
        ("!gg space invaders", "/search query:space invaders", "/search query:space invaders"),
        ("!gg james bond", "/game title:bond", "/search query:james bond"),
        ("!gg serch zelda", "/search query:zelda", nil), ("!gg lst", "/list", nil), ("!gg pro", nil, nil),
        // A long name a letter off a command's, or another word for one, is that command: no search.
        ("!gg prgress hades", "/progress title:hades", nil), ("!gg delete hades", "/remove title:hades", nil),
    ])
    func wordsThatMayBeAGamesNameAreOfferedAsASearchToo(line: String, meant: String?, search: String?) throws {
        var thrown: UsageError?
        do { _ = try TextCommandParser.parse(line) } catch { thrown = error }
        let error = try #require(thrown)
        #expect(error.meant?.commandLine == meant && error.search?.commandLine == search)
        let buttons = error.reply.actions.flatMap { $0 }.map(\.label)
        let expected: [String] =
            switch (meant, search) {
            case (nil, _): []
            case (let meant?, let search?) where meant == search: ["Search"]
            case (_, _?): ["Run it", "Search"]
            case (_, nil): ["Run it"]
            }
        #expect(buttons == expected)
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

    /// "+" adds as "-" removes, and a tag written with the "#" `/list` takes is the tag itself, so `/list #co-op`
    /// finds what `/tag tags:#co-op` tagged.
    @Test func aPlusAddsAndAHashIsNotPartOfTheTag() throws {
        let command = try BotCommand(
            try TextCommandParser.parse("/tag title:Hades tags:+Metroidvania, #Co-op, -#old, +"))
        #expect(
            command == .library(.tag(.text("Hades"), changes: [.add("metroidvania"), .add("co-op"), .remove("old")])))
    }

    /// Words written with "#" are a tag each, as hashtags are, beside the lists by commas; "tagged" before a word in
    /// `/list` is that tag.
    @Test func hashtagsAreATagEach() throws {
        let command = try BotCommand(try TextCommandParser.parse("/tag title:Hades tags:#Roguelike #co-op -#old"))
        #expect(
            command == .library(.tag(.text("Hades"), changes: [.add("roguelike"), .add("co-op"), .remove("old")])))
        let mixed = try BotCommand(try TextCommandParser.parse("/tag title:Hades tags:couch co-op #story, hard"))
        #expect(
            mixed == .library(.tag(.text("Hades"), changes: [.add("couch co-op"), .add("story"), .add("hard")])))
        let listed = try BotCommand(try TextCommandParser.parse("!gg list tagged roguelike"))
        #expect(listed == .library(.list(user: nil, status: nil, sort: .recent, page: 1, tag: "roguelike")))
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
        // Words that say how the list is ordered, or name the caller, are no member's name.
        ("!gg list by hours", .library(.list(user: nil, status: nil, sort: .hours, page: 1))),
        ("!gg list sorted by score", .library(.list(user: nil, status: nil, sort: .score, page: 1))),
        ("!gg list bob by name", .library(.list(user: UserMention(id: "bob"), status: nil, sort: .name, page: 1))),
        ("!gg list me", .library(.list(user: nil, status: nil, sort: .recent, page: 1))),
        ("!gg list mine completed", .library(.list(user: nil, status: .completed, sort: .recent, page: 1))),
        ("!gg list of bob", .library(.list(user: UserMention(id: "bob"), status: nil, sort: .recent, page: 1))),
        ("!gg stats for bob", .social(.stats(user: UserMention(id: "bob")))),
        ("!gg export as json", .library(.export(.json))), ("!gg export in csv", .library(.export(.csv))),
        ("!gg leaderboard by hours", .social(.leaderboard(.hours, .all))),
        // A period said as people say it.
        ("!gg leaderboard this week", .social(.leaderboard(.completed, .week))),
        ("!gg leaderboard hours this month", .social(.leaderboard(.hours, .month))),
        ("!gg leaderboard weekly", .social(.leaderboard(.completed, .week))),
        ("!gg leaderboard all time", .social(.leaderboard(.completed, .all))),
        // Other words for what is ranked, and for all time.
        ("!gg leaderboard rated", .social(.leaderboard(.scoreCount, .all))),
        ("!gg leaderboard most played this month", .social(.leaderboard(.hours, .month))),
        ("!gg leaderboard finished weekly", .social(.leaderboard(.completed, .week))),
        ("!gg leaderboard reviewed ever", .social(.leaderboard(.reviews, .all))),
        ("!gg leaderboard hours all time", .social(.leaderboard(.hours, .all))),
        // A most said in words, a number and its unit apart, a choice with its dash.
        ("!gg gamenight co-op under 3h", .social(.gameNight(.start, mode: .coop, maxHours: 3, night: nil))),
        ("!gg gamenight max 2 hours", .social(.gameNight(.start, mode: nil, maxHours: 2, night: nil))),
        // What people type for the buttons: "I'm in" is join, "I'm out" leave.
        ("!gg gamenight i'm in", .social(.gameNight(.join, mode: nil, maxHours: nil, night: nil))),
        ("!gg gamenight I’m in", .social(.gameNight(.join, mode: nil, maxHours: nil, night: nil))),
        ("!gg gamenight im out", .social(.gameNight(.leave, mode: nil, maxHours: nil, night: nil))),
        ("!gg gamenight again", .social(.gameNight(.reroll, mode: nil, maxHours: nil, night: nil))),
        (
            "!gg gamenight multiplayer at most 90 minutes",
            .social(.gameNight(.start, mode: .multiplayer, maxHours: 1.5, night: nil))
        ),
        // Words between two members.
        (
            "!gg compare bob and cara",
            .social(.compare(user: UserMention(id: "bob"), with: UserMention(id: "cara")))
        ),
        ("!gg compare bob vs cara", .social(.compare(user: UserMention(id: "bob"), with: UserMention(id: "cara")))),
        ("!gg compare me with bob", .social(.compare(user: UserMention(id: "bob"), with: nil))),
        // Hours with a "+" are added to those played; `/add` has none yet, so they are all.
        (
            "!gg progress Hades hours:+2",
            .library(.progress(.text("Hades"), status: nil, hours: .added(2), percent: nil))
        ),
        (
            "!gg progress Hades add_hours:1.5",
            .library(.progress(.text("Hades"), status: nil, hours: .added(1.5), percent: nil))
        ),
        ("!gg add Hades hours:+2", .library(.add(.text("Hades"), status: .playing, hours: 2))),
        // A percent with a "+" is added to the share done.
        (
            "!gg progress Hades percent:+10",
            .library(.progress(.text("Hades"), status: nil, hours: nil, percent: .added(10)))
        ),
        (
            "!gg progress Hades hours:+2 add_percent:5%",
            .library(.progress(.text("Hades"), status: nil, hours: .added(2), percent: .added(5)))
        ),
        // With a "-", they are taken off.
        (
            "!gg progress Hades hours:-2",
            .library(.progress(.text("Hades"), status: nil, hours: .added(-2), percent: nil))
        ),
        (
            "!gg progress Hades percent:-10 hours:-1h30",
            .library(.progress(.text("Hades"), status: nil, hours: .added(-1.5), percent: .added(-10)))
        ),
        // Hours with minutes, as a session is logged.
        ("!gg progress Hades hours:1h30", .library(.progress(.text("Hades"), status: nil, hours: 1.5, percent: nil))),
        ("!gg progress Hades hours:1:45", .library(.progress(.text("Hades"), status: nil, hours: 1.75, percent: nil))),
        (
            "!gg progress Hades add_hours:45 min",
            .library(.progress(.text("Hades"), status: nil, hours: .added(0.75), percent: nil))
        ),
        ("!gg add Hades hours:90min", .library(.add(.text("Hades"), status: .playing, hours: 1.5))),
        ("!gg add Hades hours:1hr15", .library(.add(.text("Hades"), status: .playing, hours: 1.25))),
        ("!gg add Hades hours:1h20", .library(.add(.text("Hades"), status: .playing, hours: 1.33))),
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
        ("!gg rate Hades score:3.5/5", .library(.rate(.text("Hades"), score: 7))),
        ("!gg rate Hades --score ★★★★", .library(.rate(.text("Hades"), score: 8))),
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
