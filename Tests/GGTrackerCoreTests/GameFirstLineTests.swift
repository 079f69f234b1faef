import Testing

@testable import GGTrackerCore

/// A line that starts with a game's name, then says what to do with it, and lines that ask a question: what each is
/// offered, to run with a button.
struct GameFirstLineTests {
    @Test(arguments: [
        // A status after the name (", is" before it too) is its progress.
        ("!gg celeste completed", "/progress title:celeste status:completed"),
        ("!gg celeste is done", "/progress title:celeste status:completed"),
        ("!gg hollow knight is finished", "/progress title:hollow knight status:completed"),
        ("!gg portal 2 dropped", "/progress title:portal 2 status:dropped"),
        // A score written as one is its score.
        ("!gg celeste 9/10", "/rate title:celeste score:9"), ("!gg celeste 4.5 stars", "/rate title:celeste score:9"),
        ("!gg celeste 8 out of 10", "/rate title:celeste score:8"),
        // Hours or a percent with their unit, as before.
        ("!gg hades 3h", "/progress title:hades hours:3"),
        // "What's new?" is the server's activity, never a command spelled like "whats".
        ("!gg whats new", "/activity"), ("!gg what's new?", "/activity"), ("!gg what is new", "/activity"),
        ("!gg whats happening", "/activity"),
        // A member's things, asked for: their list, wishlist, numbers or card.
        ("!gg what does bob have", "/list user:@bob"), ("!gg what do I have", "/list"),
        ("!gg bob's list", "/list user:@bob"), ("!gg bob’s games", "/list user:@bob"),
        ("!gg bob's wishlist", "/wishlist show user:@bob"), ("!gg bob's stats", "/stats user:@bob"),
        ("!gg let's play", "/gamenight"),
    ])
    func whatFollowsTheNameIsOffered(line: String, meant: String) {
        #expect {
            try TextCommandParser.parse(line)
        } throws: { error in
            (error as? UsageError)?.meant?.commandLine == meant
        }
    }

    /// A bare number after a name is part of it ("Portal 2", "Final Fantasy 7"), and so is a status's start ("celeste
    /// play") and a word's "'s" ("Assassin's Creed"): the name is searched, nothing rated or marked. A member's
    /// friends are no one to follow ("!gg bob's friends" is no `/friend add`).
    @Test(arguments: [
        "!gg portal 2", "!gg final fantasy 7", "!gg celeste play", "!gg assassin's creed", "!gg bob's friends",
    ])
    func aBareNumberStaysInTheName(line: String) {
        #expect {
            try TextCommandParser.parse(line)
        } throws: { error in
            guard let error = error as? UsageError else { return false }
            return error.meant?.path == ["search"] && error.meant == error.search
        }
    }

    /// A question's word is no command's name mistyped: "whats" is not offered as `/stats`.
    @Test func aQuestionIsNoMistypedCommand() {
        #expect {
            try TextCommandParser.parse("!gg whats the best roguelike")
        } throws: { error in
            guard let error = error as? UsageError else { return false }
            return !error.message.plainText.contains("/stats") && error.meant?.path == ["search"]
        }
    }
}
