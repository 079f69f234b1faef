import Foundation

/// What a typed line that names no command was likely meant for: offered with a button, never run.
extension TextCommandParser {
    /// The command a mistyped name was likely meant for, with the rest of the line, when that reads as a valid
    /// command: "!gg serch zelda" → `/search query:zelda`. Offered, never run.
    static func runnable(_ command: String?, _ rest: Substring) -> CommandInvocation? {
        guard let command else { return nil }
        let line: CommandInvocation
        // A group without its subcommand offers the one meant ("!gg follow bob" → `/friend add user:@bob`).
        do throws(UsageError) { line = try parse(command + " " + rest) } catch { return error.meant }
        // Where the command then makes its own guess ("!gg rating hades 8" → `score:8`, "!gg prgress hades 50%" →
        // `percent:50`), that one is offered; nothing where it would only be refused.
        do throws(UsageError) {
            _ = try line.validated()
            _ = try BotCommand(line)
            return line
        } catch {
            return error.meant
        }
    }

    /// A command word that names none of the commands, with what it was likely meant for, to run with a button: a
    /// status is the progress it means ("!gg finished Celeste" → `/progress … status:completed`); a name spelled
    /// like one command is that command with the rest of the line, when that works ("!gg serch zelda"); and words
    /// like no command's, or a line that works as no near command, are likely a game's name, offered as a search
    /// ("!gg hades", "!gg tom clancy's …" where `/top` was near).
    static func unknownCommand(_ word: String, named name: String, rest: Substring) -> UsageError {
        // "!gg my games", "!gg show me my list", "!gg i finished celeste": words before a command's word, the command.
        if let (next, after) = LeadWords.command(after: name, rest) {
            // Another word for a command is that command; a status ("finished celeste", "backlog") and a word like a
            // command's ("tags", "favorites") are read as typed first, as this reads them.
            let status = CommandName.statusWords[next] ?? GameStatus(rawValue: next)
            let command = status == nil ? CommandName.otherWords[next]?.rawValue ?? next : next
            if let meant = runnable("/" + command, after), meant.path != ["search"] {
                return UsageError.unknownCommand(word, meant: meant)
            }
        }
        // "!gg favorites", "!gg my faves": the caller's favorite games.
        if favoritesWords.contains(name), let list = runnable("/list", "favorites " + rest) {
            return UsageError.unknownCommand(word, meant: list)
        }
        if let (command, line) = UndoWord.meaning(name, rest), let undo = runnable(command, line) {
            return UsageError.unknownCommand(word, meant: undo)
        }
        if let game = WhoHas.game(asked: name, rest), let card = runnable("/game", game) {
            return UsageError.unknownCommand(word, meant: card)
        }
        if let (command, line) = WhoHas.shelf(asked: name, rest) ?? WhoHas.shelf(of: word, rest),
            let list = runnable(command, line)
        {
            return UsageError.unknownCommand(word, meant: list)
        }
        // "!gg playing", "!gg backlog" alone: the caller's games in that state, more likely than one to mark so.
        let listed = GameStatus(rawValue: name) ?? (["finished", "beaten"].contains(name) ? .completed : nil)
        if let listed, rest.allSatisfy(\.isWhitespace), let list = runnable("/list", Substring(listed.rawValue)) {
            return UsageError.unknownCommand(word, meant: list)
        }
        if let status = CommandName.statusWords[name],
            let progress = runnable("/progress", rest + " " + status.rawValue)
        {
            return UsageError.unknownCommand(word, meant: progress)
        }
        let nearest = CommandName.nearest(to: word)
        let command = runnable(nearest.map { "/" + $0 }, rest)
        let more = rest.drop(while: \.isWhitespace)
        // Words like no command's may be a game's, and so may more words after a short one like a command's (not
        // another word for one, nor a long name a letter or two off: "prgress hades" is no game's name).
        let lowered = word.lowercased()
        let commandWord =
            CommandName.otherWords[lowered] != nil || nearest.map { Self.isMistyped(lowered, as: $0) } == true
        // "!gg what is done" asks; "!gg celeste is done" is a game's progress.
        if !commandWord, !CommandName.questionWords.contains(name), let meant = Self.gameFirst(word + rest) {
            return UsageError.unknownCommand(word, meant: meant)
        }
        let gameLike =
            word.contains(where: \.isLetter)
            && (CommandName.nearNames(word).isEmpty
                || (!more.isEmpty && nearest != CommandName.search.rawValue && !commandWord))
        let search = gameLike ? runnable("/search", Substring(word + " " + more)) : nil
        return UsageError.unknownCommand(word, meant: command, search: search)
    }

    /// A game's name typed first, then what to do with it: hours or a percent with their unit, or a status, are its
    /// progress ("!gg hades 3h", "!gg celeste +10%", "!gg celeste completed", "!gg celeste is done"); a score
    /// written as one ("!gg celeste 9/10", "4.5 stars") is its score. A bare number is part of a name ("portal 2").
    private static func gameFirst(_ line: String) -> CommandInvocation? {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.count >= 3, words[words.count - 2].lowercased() == "is",
            CommandName.statusWords[words[words.count - 1].lowercased()] != nil
        {
            words.remove(at: words.count - 2)
        }
        let text = Substring(words.joined(separator: " "))
        // A status in full ("play" may be a name's, as in "let's play").
        let status = words.last.flatMap {
            CommandName.statusWords[$0.lowercased()] ?? GameStatus(rawValue: $0.lowercased())
        }
        if let progress = runnable("/progress", text), progress.options["title"] != nil,
            PercentDone.addingTo.flatMap({ [$0, $1.name] }).contains(where: { progress.options[$0] != nil })
                || (progress.options["status"] != nil && status != nil)
        {
            return progress
        }
        guard let last = words.last, Int(last) == nil || text.lowercased().contains(" out of "),
            let rate = runnable("/rate", text), rate.options["title"] != nil, rate.options["score"] != nil
        else { return nil }
        return rate
    }

    /// "!gg add Celeste completed 9/10": `/add` takes no score, and `/rate` adds a game not in the library as
    /// completed with its score: that is offered (never run), with the title before the score and a status of
    /// completed left out. Only a score written as one ("9/10", "4.5 stars", "★★★★", "8 out of 10"): a bare number
    /// may be hours or part of a name, and another status is no game rated.
    static func scoreAfterAddsTitle(_ rest: Substring) throws(UsageError) {
        let text = rest.trimmingCharacters(in: .whitespaces)
        guard !text.contains(":"), !text.contains("--"),
            let (before, value) = CommandInvocation.trailingValue(of: text, for: .score),
            let last = text.split(whereSeparator: \.isWhitespace).last,
            Int(last) == nil || text.lowercased().contains(" out of ")
        else { return }
        var words = before.split(whereSeparator: \.isWhitespace)
        if let status = words.last.flatMap({ OptionSpec.status("").reading(String($0)) }), words.count >= 2 {
            guard status == .string(GameStatus.completed.rawValue) else { return }
            words.removeLast()
        }
        let rate = CommandInvocation(
            path: ["rate"], options: ["title": .string(words.joined(separator: " ")), "score": value])
        throw UsageError(
            "\(code: "/add") takes no score; \(code: "/rate") adds a game you have not added as completed, with its score. "
                + "Did you mean \(code: rate.commandLine)?",
            meant: rate)
    }

    /// Whether `word` is the command `name` mistyped rather than a word of a game's name: long, and its start or a
    /// letter or two off ("prgress", "leaderb"; not "tom" for `top`, nor "company" for `compare`).
    static func isMistyped(_ word: String, as name: String) -> Bool {
        if name.hasPrefix(word) { return word.count >= 6 }
        guard let distance = boundedLevenshtein(Array(word.utf8), Array(name.utf8), limit: 2) else { return false }
        return (word.count >= 6 && distance <= 1) || (word.count >= 8 && distance <= 2)
    }
}

/// A word that undoes what a command does, typed as the command: "!gg unfollow bob" is `/friend remove user:bob`
/// (not the `/friend` it is spelled like, which would follow), "!gg untag hades roguelike" `/tag title:hades
/// tags:-roguelike`, "!gg unwishlist silksong" `/wishlist remove`, "!gg unfavorite hades" `/favorite` (which
/// unmarks a favorite). Offered, never run.
private enum UndoWord {
    static func meaning(_ word: String, _ rest: Substring) -> (command: String, rest: Substring)? {
        switch word {
        case "unfollow", "unfriend": ("/friend remove", rest)
        case "unwishlist", "unwish": ("/wishlist remove", rest)
        case "unfavorite", "unfavourite", "unfav", "unfave", "unstar": ("/favorite", rest)
        case "untag": ("/tag", removing(rest))
        default: nil
        }
    }

    /// The tags ending `rest` named and marked for removal: each of a list from the word before its first comma on
    /// ("hades co-op, roguelike" → "hades tags:-co-op, -roguelike"), or else the last word.
    private static func removing(_ rest: Substring) -> Substring {
        var words = rest.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return rest }
        let first = words.firstIndex { $0.hasSuffix(",") } ?? words.count - 1
        var marking = true
        for index in first..<words.count {
            if marking && !words[index].hasPrefix("-") { words[index] = "-" + words[index] }
            marking = words[index].hasSuffix(",")
        }
        words[first] = "tags:" + words[first]
        return Substring(words.joined(separator: " "))
    }
}

/// "!gg who has hades", "!gg anyone playing celeste?": a question about who here has a game, which its card answers
/// (`/game` names the members who have it, play it, finished it or wish for it).
private enum WhoHas {
    private static let askers: Set<String> = ["who", "whos", "who's", "who’s", "anyone", "anybody", "someone"]
    private static let verbs: Set<String> = [
        "has", "have", "had", "got", "owns", "own", "is", "are", "plays", "play", "playing", "played", "wants",
        "want", "finished", "completed", "beat", "else", "here", "else's",
    ]

    /// "!gg what is bob playing?", "!gg whats bob finished", "!gg what am i playing": the member's games in that
    /// state, as `/list` takes them (the member, then the state); "what should I play" the caller's backlog, "what
    /// should we play" (or "let's play") a game night; "what's new" the server's activity.
    static func shelf(asked word: String, _ rest: Substring) -> (command: String, rest: Substring)? {
        // "!gg let's play", "!gg lets play something": a game night.
        if ["lets", "let's", "let’s"].contains(word), rest.split(whereSeparator: \.isWhitespace).first == "play" {
            return ("/gamenight", "")
        }
        guard ["what", "whats", "what's", "what’s"].contains(word) else { return nil }
        // The member's word as typed: a platform's id (Slack's "<@U123>") keeps its case.
        var words = rest.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: ["?"]) }
        if words.count >= 3, words[0].lowercased() == "should", words[2].lowercased() == "play" {
            switch words[1].lowercased() {
            case "i": return ("/list", Substring(GameStatus.backlog.rawValue))
            case "we": return ("/gamenight", "")
            default: return nil
            }
        }
        // "!gg what's new?", "!gg whats happening": the server's recent activity.
        let asked = words.map { $0.lowercased() }.filter { $0 != "is" }
        if asked.count == 1, ["new", "happening", "up"].contains(asked[0]) { return ("/activity", "") }
        if let first = words.first,
            ["is", "are", "am", "has", "have", "did", "does", "do"].contains(first.lowercased())
        {
            words.removeFirst()
        }
        // "what does bob have", "what do I own": the member's library.
        if words.count == 2, ["have", "own", "got"].contains(words[1].lowercased()) {
            return ("/list", Substring(["i", "me"].contains(words[0].lowercased()) ? "" : words[0]))
        }
        let said = words.last?.lowercased() ?? ""
        guard words.count == 2, let state = CommandName.statusWords[said] ?? GameStatus(rawValue: said) else {
            return nil
        }
        return (
            "/list", Substring((["i", "me"].contains(words[0].lowercased()) ? "" : words[0] + " ") + state.rawValue)
        )
    }

    /// "!gg bob's list", "!gg @bob's wishlist", "!gg bob's stats": a member's, then a command showing a member's
    /// things, is that command for them (a name ending "'s" that is a question's word or a game's is none).
    static func shelf(of word: String, _ rest: Substring) -> (command: String, rest: Substring)? {
        guard
            let end = word.range(of: "'s", options: [.backwards, .anchored])
                ?? word.range(of: "’s", options: [.backwards, .anchored]),
            !CommandName.questionWords.contains(word.lowercased()),
            case let member = String(word[..<end.lowerBound]), !member.isEmpty,
            case let words = rest.split(whereSeparator: \.isWhitespace), words.count == 1,
            case let said = words[0].lowercased(),
            let command = CommandName(rawValue: said) ?? CommandName.otherWords[said],
            [.list, .wishlist, .stats, .profile, .activity].contains(command)
        else { return nil }
        return ("/" + command.rawValue, Substring(member.hasPrefix("@") ? member : "@" + member))
    }

    /// The game asked about, when `word` asks who and the words after the verbs name something.
    static func game(asked word: String, _ rest: Substring) -> Substring? {
        guard askers.contains(word) else { return nil }
        let words = rest.split(whereSeparator: \.isWhitespace)
        let name = words.drop { verbs.contains($0.lowercased()) }.joined(separator: " ")
            .trimmingCharacters(in: ["?", " "])
        return words.first.map { verbs.contains($0.lowercased()) } == true && !name.isEmpty ? Substring(name) : nil
    }
}

/// Words people write before a command's word that are no part of it: "my", "show", "i", "just" ("!gg show me my
/// list", "!gg i just finished celeste").
private enum LeadWords {
    private static let words: Set<String> = [
        "my", "show", "view", "see", "open", "display", "me", "i", "im", "i'm", "i’m", "ive", "i've", "i’ve", "just",
        "please", "pls", "plz", "can", "you", "also", "the",
    ]

    /// The command's word after `word` and any more such words, with the rest of the line; nil where `word` is none
    /// of them or what follows is no command's word, another word for one or a status ("!gg my little pony").
    static func command(after word: String, _ rest: Substring) -> (word: String, rest: Substring)? {
        guard words.contains(word) else { return nil }
        var rest = rest.drop(while: \.isWhitespace)
        while let next = rest.split(whereSeparator: \.isWhitespace).first {
            let name = next.lowercased().trimmingCharacters(in: [":", ",", ".", "!", "?"])
            let after = rest.dropFirst(next.count).drop(while: \.isWhitespace)
            // "me" alone is `/profile`'s word ("!gg show me").
            if words.contains(name), !after.isEmpty {
                rest = after
                continue
            }
            let status = CommandName.statusWords[name] != nil || GameStatus(rawValue: name) != nil
            // "my completed games": a state, then a word for games, is the games in that state.
            if status, ["games", "ones", "list", "library"].contains(after.lowercased()) { return (name, "") }
            // A command's name in the plural too ("my tags", "my reviews").
            let known =
                status || CommandName(rawValue: name) != nil || CommandName.otherWords[name] != nil
                || favoritesWords.contains(name)
                || (name.hasSuffix("s") && CommandName(rawValue: String(name.dropLast())) != nil)
            return known ? (name, after) : nil
        }
        return nil
    }
}

/// Words for one's favorite games, typed as the command: the list of them (`/list favorites:true`), where "fave" or
/// "favourite" marks one.
private let favoritesWords: Set<String> = ["favorites", "favourites", "faves", "favs"]
