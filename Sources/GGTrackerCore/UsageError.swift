import Foundation

/// A command that cannot be run as given, with the words the user will read.
package struct UsageError: Error, Equatable, Sendable {
    package var message: RichText
    /// The usage text of the command concerned, when known.
    package var usage: String?
    /// The whole command the words seem meant for ("Did you mean …?"), offered as a button.
    package var meant: CommandInvocation?
    /// A search for the words, offered beside `meant` when they may as well be a game's name ("!gg tom clancy's …").
    package var search: CommandInvocation?
    /// `meant` reads the title's last words as the options the command lacks ("!gg rate celeste 9"): it is run in
    /// place of this answer when the title as typed names no game (`GGTrackerBot.respond(to:from:progress:)`).
    package var readsTheTitlesEnd = false
    /// The command word of a line that names none of our commands, when this answers one.
    package var unknownWord: String?
    package init(
        _ message: RichText, usage: String? = nil, meant: CommandInvocation? = nil, search: CommandInvocation? = nil,
        readsTheTitlesEnd: Bool = false
    ) {
        self.message = message
        self.usage = usage
        self.meant = meant
        self.search = search
        self.readsTheTitlesEnd = readsTheTitlesEnd
    }

    package init(_ message: String, usage: String? = nil) {
        self.init(RichText(stringLiteral: message), usage: usage)
    }

    /// The private answer that says so: the message, the command's usage, and `meant` (and `search`) as buttons.
    package var reply: Reply {
        var text = message
        if let usage { text += "\nUsage: \(code: "\(usage)")" }
        var reply = Reply.notice(text)
        if let meant {
            reply.actions = [[Action(meant == search ? "Search" : "Run it", meant, style: .primary)]]
            if let search, search != meant { reply.actions[0].append(Action("Search", search)) }
        }
        return reply
    }

    /// A command name that is none of ours, with the nearest ones: "Unknown command `lst`. Did you mean `/list`?";
    /// with the whole command the line was likely `meant` for, that one, to run with a button.
    /// With a `search` for the words, it is offered too (beside `meant`, or alone).
    /// Where the words name `games` (one, or a few namesakes), they are what the line is taken to mean ("!gg
    /// hades", "!gg hollow").
    static func unknownCommand(
        _ typed: String, meant: CommandInvocation? = nil, search: CommandInvocation? = nil, games: [Game] = []
    ) -> UsageError {
        let names = games.map { "\(bold: $0.displayName)" as RichText }
        let didYouMean: RichText? =
            names.count > 1
            ? " Did you mean one of the games " + names.dropLast().joined(separator: ", ") + " or " + names.last! + "?"
            : names.first.map { " Did you mean the game " + $0 + "?" }
                ?? meant.map { " Did you mean \(code: $0.commandLine)?" }
        var message: RichText =
            "Unknown command \(code: typed)." + (didYouMean ?? CommandName.suggestion(for: typed))
            + " \(code: "/help") lists them all"
        if let search { message += "; to look a game up, \(code: search.commandLine)" }
        var error = UsageError(message + ".", meant: meant ?? search, search: search)
        error.unknownWord = typed
        return error
    }
}
