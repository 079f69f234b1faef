extension CommandName {
    /// Other words people type for a command: "library" for `/list`, "feed" for `/activity`, "delete" for
    /// `/remove`. Offered, never run: a word may mean something else to the one who typed it.
    static let otherWords: [String: CommandName] = {
        var words: [String: CommandName] = [:]
        let groups: [(CommandName, [String])] = [
            (.search, ["find", "lookup"]),
            (.game, ["info", "details"]),
            (.top, ["best", "popular"]),
            (.browse, ["genre", "genres", "platform", "platforms", "explore"]),
            (.progress, ["update", "status", "finish", "finished", "complete", "done", "hours", "playing", "played"]),
            (.rate, ["rating", "score", "stars"]),
            (.wishlist, ["want", "wants"]),
            (.favorite, ["favourite", "fave", "fav", "star"]),
            (.tag, ["label", "labels"]),
            (.note, ["memo", "notes"]),
            (.remove, ["delete", "del", "rm", "forget"]),
            (.list, ["library", "collection", "shelf", "games", "backlog", "mine"]),
            (.export, ["backup", "download"]),
            (.importLibrary, ["steam", "upload"]),
            (.profile, ["me", "whoami", "card"]),
            (.stats, ["statistics", "numbers", "chart", "charts"]),
            (.compare, ["vs", "versus", "match"]),
            (.leaderboard, ["rank", "ranks", "ranking", "rankings", "scoreboard", "lb"]),
            (.challenge, ["medals", "medal", "achievements", "goal", "goals"]),
            (.friend, ["follow", "unfollow", "friends"]),
            (.activity, ["feed", "news", "recent", "log"]),
            (.upcoming, ["releases", "release", "calendar", "soon", "alerts", "alert", "coming"]),
            (.recap, ["wrapped", "year", "summary"]),
            (.gamenight, ["night", "lfg", "party", "tonight"]),
            (.share, ["link", "page", "web"]),
            (.help, ["commands", "start", "usage", "?"]),
        ]
        for (command, names) in groups {
            for name in names { words[name] = command }
        }
        return words
    }()

    /// Words for a status typed as the command ("!gg finished Celeste"): the `/progress` they mean.
    static let statusWords: [String: GameStatus] = [
        "finished": .completed, "finish": .completed, "complete": .completed, "completed": .completed,
        "done": .completed, "beat": .completed, "beaten": .completed, "playing": .playing, "started": .playing,
        "paused": .paused, "pause": .paused, "dropped": .dropped, "drop": .dropped,
    ]

    /// The subcommand of a group that words typed after it without one were most likely meant for: a game after
    /// `/wishlist` is one to add (a member, whose wishlist to show), a member after `/friend` one to follow and
    /// after `/profile` whose card to show, a name after `/challenge` the challenge to show. Nil where no guess is
    /// safe.
    func subcommand(forFreeText text: String) -> String? {
        let member = text.hasPrefix("@")
        let oneWord = !text.contains(where: \.isWhitespace)
        // "!gg wishlist of bob", "!gg profile for bob": whose to show ("for" before a game's name: "For Honor").
        let words = text.split(whereSeparator: \.isWhitespace)
        let whose = words.count == 2 ? words[0].lowercased() : nil
        switch self {
        case .wishlist: return member || whose == "of" ? "show" : "add"
        case .friend: return oneWord ? "add" : nil
        case .profile: return oneWord || whose == "of" || whose == "for" ? "show" : nil
        case .challenge: return member ? nil : "show"
        case .importLibrary: return oneWord ? "steam" : nil
        default: return nil
        }
    }
}

extension CommandName {
    /// " Did you mean `/list`?" for another word for a command ("library", `otherWords`) or a mistyped name
    /// (`nearestNames`; admin's is never offered), or nothing.
    static func suggestion(for typed: String) -> RichText {
        let near = nearNames(typed)
        guard !near.isEmpty else { return "" }
        return " Did you mean " + near.map { RichText([.code("/" + $0)]) }.joined(separator: RichText(" or ")) + "?"
    }

    /// Words that ask a question ("!gg whats new"), never a command's name mistyped.
    static let questionWords: Set<String> = ["what", "whats", "what's", "what’s", "how", "who", "why", "when", "where"]

    /// Up to three commands a typed name may mean: another word for one first, then names spelled alike; none for a
    /// question's word.
    static func nearNames(_ typed: String) -> [String] {
        let word = typed.trimmingCharacters(in: ["/", " "]).lowercased()
        guard !questionWords.contains(word) else { return [] }
        let names = allCases.filter { $0 != .admin }.map(\.rawValue)
        let other = otherWords[word].map { [$0.rawValue] } ?? []
        return Array((other + nearestNames(word, among: names).filter { !other.contains($0) }).prefix(3))
    }

    /// The one command a typed name means, when the suggestion names only one.
    static func nearest(to typed: String) -> String? {
        let near = nearNames(typed)
        return near.count == 1 ? near[0] : nil
    }
}
