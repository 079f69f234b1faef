/// Every user-facing command. The raw value is the wire name on every platform.
package enum CommandName: String, CaseIterable, Sendable {
    case search, game, top, browse, add, progress, rate, review, wishlist, favorite, tag, note, remove, list, export
    case importLibrary = "import"
    case profile, stats, compare, leaderboard, challenge, friend, activity, upcoming, recap, gamenight, share, help
    case about, account, admin

    /// The command's declaration, built once per process (a command line, a validation and every button's
    /// command read it).
    package var spec: CommandSpec { Self.specs[Self.all.firstIndex(of: self)!] }

    private static let all = allCases
    private static let specs = all.map(\.placedDeclaration)

    /// The command's options, subcommands and texts; `placedDeclaration` adds where it may run.
    var declaration: CommandSpec {
        let status = OptionSpec.status("Where you are with it")
        let hours = OptionSpec(
            name: "hours", summary: "Hours played in total", kind: .number, minValue: 0, maxValue: PlayedHours.most,
            units: OptionSpec.hourUnits)
        var percent = OptionSpec.integer("percent", "Percent complete", min: 0, max: 100)
        percent.units = PercentDone.units
        let score = OptionSpec.score
        switch self {
        case .search:
            return CommandSpec(
                name: "search", summary: "Search the game catalog",
                options: [
                    .string("query", "Words from the game's name", required: true, maxLength: 200),
                    .string("platform", "Only games on this platform", autocomplete: true, maxLength: 100),
                    .string("genre", "Only games of this genre", autocomplete: true, maxLength: 100),
                ],
                examples: ["/search query:hollow knight", "/search query:zelda platform:Nintendo Switch"])
        case .game:
            return CommandSpec(
                name: "game", summary: "Show a game's details and who here has it", options: [.title()],
                examples: ["/game title:Celeste"])
        case .top:
            return CommandSpec(
                name: "top", summary: "The best-rated games by critics",
                options: [
                    .string("genre", "Only this genre", autocomplete: true, maxLength: 100),
                    .string("platform", "Only this platform", autocomplete: true, maxLength: 100),
                    .integer("year", "Only games released this year", min: 1950, max: 2100),
                    .page(),
                ],
                examples: ["/top genre:Platform", "/top year:2017"])
        case .browse:
            return CommandSpec(
                name: "browse", summary: "Browse the catalog by genre, platform, mode or engine",
                subcommands: FacetKind.allCases.map { kind in
                    CommandSpec(
                        name: kind.rawValue, summary: "Games by \(kind.rawValue)",
                        options: [
                            .string(
                                "name", "The \(kind.rawValue) (leave it out for the list)", autocomplete: true,
                                maxLength: 100),
                            .page(),
                        ])
                },
                examples: ["/browse genre name:Puzzle", "/browse platform"])
        case .add:
            return CommandSpec(
                name: "add", summary: "Add a game to your library",
                options: [.title(), status, hours],
                examples: ["/add title:Hollow Knight status:playing", "/add title:Hades hours:12"])
        case .progress:
            return CommandSpec(
                name: "progress", summary: "Update status, hours or percent complete",
                options: [
                    .askedTitle, status, hours, percent, PlayedHours.addedOption, PercentDone.addedOption,
                ],
                examples: [
                    "/progress title:Hollow Knight hours:30 percent:65", "/progress title:Hades status:completed",
                ],
                details:
                    "Without a status, hours or a percent move a backlog game to playing, and 100% marks it completed.")
        case .rate:
            return CommandSpec(
                name: "rate", summary: "Score a game from 1 to 10",
                options: [
                    .askedTitle, score,
                ],
                examples: ["/rate title:Celeste score:9"],
                details: "A game not yet in your library is added as completed.")
        case .review:
            return CommandSpec(
                name: "review", summary: "Review a game you have completed",
                options: [
                    .askedTitle,
                    .string("text", "Your review (leave empty to open a form)", maxLength: 4000, greedy: true),
                    OptionSpec(
                        name: "spoiler", summary: "true if it gives the story away: shown hidden until clicked",
                        kind: .boolean),
                    OptionSpec(
                        name: "by", summary: "Read this member's review instead (shown only to you)", kind: .user),
                ],
                examples: [
                    "/review title:Celeste text:Tight, kind and hard.",
                    "/review title:Outer Wilds text:The ending… spoiler:true", "/review title:Celeste by:@ada",
                ],
                details:
                    "Only for games you have completed; up to 4000 characters; replaces your earlier review. A spoiler review stays one until you give spoiler:false."
            )
        case .wishlist:
            return CommandSpec(
                name: "wishlist", summary: "Games you want to play",
                subcommands: [
                    CommandSpec(name: "add", summary: "Put a game on your wishlist", options: [.title()]),
                    CommandSpec(name: "remove", summary: "Take a game off your wishlist", options: [.title()]),
                    CommandSpec(
                        name: "show", summary: "Show a wishlist",
                        options: [.user("Whose wishlist (default: yours)"), .page()]),
                ],
                examples: ["/wishlist add title:Silksong", "/wishlist show"])
        case .favorite:
            return CommandSpec(
                name: "favorite", summary: "Mark or unmark a game in your library as a favorite",
                options: [.askedTitle],
                examples: ["/favorite title:Hades"])
        case .tag:
            return CommandSpec(
                name: "tag", summary: "Tag a game in your library",
                options: [.askedTitle, .tags()],
                examples: [
                    "/tag title:Hades tags:roguelike, couch", "/tag title:Hades tags:-couch", "/tag title:Hades",
                ],
                details:
                    "Up to 20 tags per game, each 1–32 characters, stored lower-case. Without tags, shows the game's tags."
            )
        case .note:
            return CommandSpec(
                name: "note", summary: "Keep a note on a game in your library",
                options: [
                    .askedTitle,
                    .string("text", "The note (leave out to see your note)", maxLength: 1000, greedy: true),
                    OptionSpec(name: "clear", summary: "true to delete the note", kind: .boolean),
                ],
                examples: [
                    "/note title:Hades text:Try the spear next", "/note title:Hades", "/note title:Hades clear:true",
                ])
        case .remove:
            return CommandSpec(
                name: "remove", summary: "Remove a game from your library and wishlist",
                options: [.askedTitle, .confirm()],
                examples: ["/remove title:Hades", "/remove title:Hades confirm:true"])
        case .list:
            return CommandSpec(
                name: "list", summary: "Show a game library",
                options: [
                    .user("Whose library (default: yours)"),
                    .status("Only this status"),
                    .string("sort", "Order", choices: LibrarySort.allCases.map(\.rawValue)),
                    .page(),
                    .string("tag", "Only games with this tag", autocomplete: true),
                    OptionSpec(name: "favorites", summary: "Only the games marked favorite", kind: .boolean),
                ],
                examples: ["/list", "/list status:completed sort:score", "/list tag:co-op", "/list favorites:true"])
        case .profile:
            return CommandSpec(
                name: "profile", summary: "A player's profile card",
                subcommands: [
                    CommandSpec(
                        name: "show", summary: "Show a profile", options: [.user("Whose profile (default: yours)")]),
                    CommandSpec(
                        name: "set", summary: "Set your nickname, avatar or bio",
                        options: [
                            .string("nickname", "Shown instead of your chat name", maxLength: 32),
                            .string("avatar", "An https:// image URL", maxLength: 512),
                            .string("bio", "A few words about you", maxLength: 300, greedy: true),
                            .string(
                                "clear", "Remove your nickname, avatar, bio or all of them",
                                choices: ProfileClearing.allCases.map(\.rawValue)),
                        ]),
                ],
                examples: [
                    "/profile show", "/profile set nickname:Ada bio:Metroidvanias forever", "/profile set clear:avatar",
                ])
        case .stats:
            return CommandSpec(
                name: "stats", summary: "Numbers and charts of a library",
                options: [.user("Whose stats (default: yours)")],
                examples: ["/stats"])
        case .help:
            return CommandSpec(
                name: "help", summary: "How to use the bot",
                options: [.string("command", "A command to explain", autocomplete: true, maxLength: 32)],
                examples: ["/help", "/help command:add"])
        case .compare:
            return CommandSpec(
                name: "compare", summary: "Compare two libraries: shared games and how well your scores agree",
                options: [
                    OptionSpec(
                        name: "user", summary: "Whose library", kind: .user, required: true, askedWhenMissing: true),
                    OptionSpec(name: "with", summary: "Compared with whom (default: you)", kind: .user),
                ],
                examples: ["/compare user:@bob"],
                details: """
                    Compatibility is 100% × (1 − the average gap between your scores ÷ 9), over the games you both rated: \
                    100% when every score agrees, 0% when every one is as far apart as 1 and 10.
                    """)
        case .leaderboard:
            return CommandSpec(
                name: "leaderboard", summary: "This server's ranking",
                options: [
                    LeaderboardMetric.option,
                    Period.option,
                ],
                examples: ["/leaderboard", "/leaderboard metric:hours period:week"],
                details: "Equal values share a rank. Your own rank is shown even outside the top 10.")
        case .challenge:
            let name = OptionSpec.string(
                "name", "The challenge's name", required: true, autocomplete: true, maxLength: 64)
            var yours = name, asked = name
            yours.required = false
            asked.askedWhenMissing = true
            yours.summary = "The challenge's name (default: the one you are in)"
            return CommandSpec(
                name: "challenge", summary: "Group challenges with medals",
                subcommands: [
                    CommandSpec(
                        name: "create", summary: "Start a challenge in this server",
                        options: [
                            name,
                            OptionSpec(
                                name: "goal", summary: "How much to reach", kind: .number, required: true,
                                minValue: nil,
                                maxValue: 1_000_000),
                            .string(
                                "unit", "What counts", required: true, choices: ChallengeUnit.allCases.map(\.rawValue)),
                            .string(
                                "ends", "Last day: 2030-05-31, Dec 31, in 2 weeks", required: true, maxLength: 40,
                                shape: .day),
                        ]),
                    CommandSpec(name: "join", summary: "Join a challenge", options: [asked]),
                    CommandSpec(name: "leave", summary: "Leave a challenge", options: [asked]),
                    CommandSpec(
                        name: "progress", summary: "Add progress to a custom challenge",
                        options: [
                            yours,
                            OptionSpec(
                                name: "amount", summary: "How much to add; below zero takes back a mistake",
                                kind: .number, required: true, minValue: -1_000_000, maxValue: 1_000_000),
                        ]),
                    CommandSpec(name: "show", summary: "Standings of a challenge", options: [yours]),
                    CommandSpec(name: "list", summary: "This server's challenges"),
                ],
                examples: [
                    "/challenge create name:Spring Cleaning goal:3 unit:games_completed ends:2030-05-31",
                    "/challenge join name:Spring Cleaning",
                ],
                details: """
                    Progress in games_completed, hours_played and reviews_written challenges follows your library \
                    between the challenge's creation and its end, by itself; custom challenges use \
                    “/challenge progress amount:” (an amount below zero takes back a mistake, never below none, and a \
                    medal it had won). \
                    Reaching the goal wins a medal, shown on your profile.
                    """)
        case .friend:
            let user = OptionSpec(name: "user", summary: "Who", kind: .user, required: true, askedWhenMissing: true)
            return CommandSpec(
                name: "friend", summary: "Follow friends; their news comes first in /activity",
                subcommands: [
                    CommandSpec(name: "add", summary: "Follow someone", options: [user]),
                    CommandSpec(name: "remove", summary: "Stop following someone", options: [user]),
                    CommandSpec(name: "list", summary: "Who you follow"),
                ],
                examples: ["/friend add user:@bob"])
        case .activity:
            return CommandSpec(
                name: "activity", summary: "Recent news from this server",
                options: [.user("Only this member's news")], examples: ["/activity"])
        case .upcoming:
            return CommandSpec(
                name: "upcoming", summary: "Wishlisted games not out yet, soonest first, with who wants them",
                options: [.user("Only this member's wishlist")], examples: ["/upcoming", "/upcoming user:@ada"],
                details:
                    "The wishlists of this server's members; a game known only by its year stays until that year ends.")
        case .recap:
            return CommandSpec(
                name: "recap", summary: "A year in review: games finished, hours, best rated, medals, by month",
                options: [
                    .user("Whose year (default: yours)"),
                    .integer("year", "Which year (default: this one)", min: 1970, max: 2100),
                ],
                examples: ["/recap", "/recap year:2025", "/recap user:@ada"],
                details:
                    "Years are counted in UTC. With a share link on, the same recap is a web page at /u/<token>/recap/<year>."
            )
        case .export:
            return CommandSpec(
                name: "export", summary: "Download your library, wishlist, reviews, tags and notes as a file",
                options: [
                    .string(
                        "format", "csv (default) or json", choices: LibraryExport.Format.allCases.map(\.rawValue))
                ],
                examples: ["/export", "/export format:json"],
                details: "The link is private, works for one download and expires after 15 minutes.")
        case .importLibrary:
            return CommandSpec(
                name: "import", summary: "Bring your games from Steam or another tracker's CSV export",
                subcommands: [
                    CommandSpec(
                        name: "steam", summary: "Your Steam library, with hours played",
                        options: [
                            .string(
                                "steam_id", "Your SteamID64, profile address or custom URL name", required: true,
                                maxLength: 200)
                        ]),
                    CommandSpec(
                        name: "file", summary: "A Grouvee, HowLongToBeat or GGTracker CSV export",
                        options: [
                            OptionSpec(
                                name: "file", summary: "The CSV file (at most 5 MB)", kind: .attachment, required: true),
                            .string(
                                "format", "Which export (default: auto, told by its columns)",
                                choices: ImportFormat.allCases.map(\.rawValue)),
                        ]),
                ],
                examples: ["/import steam steam_id:gabelogannewell", "/import steam steam_id:76561197960287930"],
                details:
                    "/import file takes a file attached on Discord; on Matrix, a file sent to the room that the command replies to; on Slack, the newest CSV you shared in the channel in the last day. Adds what is missing and never changes what you wrote (status, score, review, tags, note); hours only go up. Running it again changes nothing."
            )
        case .gamenight:
            return CommandSpec(
                name: "gamenight", summary: "Decide together what to play tonight: join, then pick from your shelves",
                options: [
                    GameNightAction.option,
                    .string(
                        "mode", "Which games: any, coop or multiplayer (default)",
                        choices: GameNightMode.allCases.map(\.rawValue)),
                    OptionSpec(
                        name: "max_hours", summary: "Only games beaten in about this many hours (when known)",
                        kind: .number, minValue: 0.5, maxValue: 1000, units: OptionSpec.hourUnits),
                    .integer("night", "Which game night (the buttons fill this in)", min: 1, max: 2_147_483_647),
                ],
                examples: [
                    "/gamenight", "/gamenight mode:coop max_hours:6", "/gamenight action:join",
                    "/gamenight action:pick", "/gamenight action:reroll",
                ],
                details: """
                    Posts a message with I'm in, Leave and Pick a game buttons. Picking (by a player who joined, \
                    with at least 2 in) proposes 3 games from the players' libraries and wishlists: 2 points for \
                    each player who owns one, 1 for each who wishes for it, minus 1 for each who completed or \
                    dropped it, then by critics' rating; Reroll shows the next 3. mode and max_hours given with a \
                    pick change what the night looks for, its players staying in. A game night lasts 12 hours; its \
                    host's new one in the same channel replaces it. In text: !gg gamenight, !gg gamenight join, \
                    !gg gamenight pick, !gg gamenight reroll.
                    """)
        case .share:
            return CommandSpec(
                name: "share", summary: "A link to a read-only web page of your library",
                options: [
                    OptionSpec(name: "revoke", summary: "Turn the current link off", kind: .boolean)
                ],
                examples: ["/share", "/share revoke:true"])
        case .about:
            return CommandSpec(name: "about", summary: "About this bot and its catalog")
        case .account:
            return CommandSpec(
                name: "account", summary: "Your account",
                subcommands: [
                    CommandSpec(
                        name: "delete", summary: "Erase everything you stored here, for good", options: [.confirm()])
                ],
                examples: ["/account delete", "/account delete confirm:true"])
        case .admin:
            return CommandSpec(
                name: "admin", summary: "Server admin tools",
                subcommands: [
                    CommandSpec(
                        name: "catalog", summary: "The game catalog",
                        subcommands: [
                            CommandSpec(
                                name: "refresh", summary: "Refresh the catalog from its provider",
                                options: [.string("mode", "What to fetch", choices: ["incremental", "full"])]),
                            CommandSpec(name: "status", summary: "Catalog provider, size and last refresh"),
                        ]),
                    CommandSpec(
                        name: "settings", summary: "This server's settings",
                        options: [
                            OptionSpec(
                                name: "announce_channel", summary: "Where activity is announced", kind: .channel),
                            OptionSpec(
                                name: "stop_announcing",
                                summary: "true to announce nothing any more (clears the channel)",
                                kind: .boolean),
                            .string(
                                "age_gate", "Hide mature games outside age-restricted channels",
                                choices: AgeGate.allCases.map(\.rawValue)),
                        ]),
                ],
                adminOnly: true,
                examples: ["/admin catalog status", "/admin settings age_gate:off"])
        }
    }
}
