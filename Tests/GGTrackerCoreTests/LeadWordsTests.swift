import Testing

@testable import GGTrackerCore

/// Words people type before a command's word ("my", "show me", "i just") are no part of it: the command they lead to
/// is offered, to run with a button. Words leading to no command's word are left to be read as a game's name.
struct LeadWordsTests {
    @Test(arguments: [
        ("!gg my games", "/list"), ("!gg my library", "/list"), ("!gg show my list", "/list"),
        ("!gg show me my list", "/list"), ("!gg can you show my library", "/list"),
        ("!gg my wishlist", "/wishlist show"), ("!gg my stats", "/stats"), ("!gg my feed", "/activity"),
        ("!gg show me the leaderboard", "/leaderboard"), ("!gg my tags", "/tag"), ("!gg my notes", "/note"),
        // "me" alone is the caller's card.
        ("!gg show me", "/profile show"),
        // A state is the caller's games in it, with or without a word for games after it.
        ("!gg show my backlog", "/list status:backlog"), ("!gg show playing", "/list status:playing"),
        ("!gg my completed games", "/list status:completed"), ("!gg show my finished ones", "/list status:completed"),
        // A state before a game's name is its progress.
        ("!gg i finished celeste", "/progress title:celeste status:completed"),
        ("!gg i'm playing hollow knight", "/progress title:hollow knight status:playing"),
        ("!gg i just beat celeste", "/progress title:celeste status:completed"),
        ("!gg i dropped portal 2", "/progress title:portal 2 status:dropped"),
        ("!gg i played celeste for 2 hours", "/progress title:celeste hours:2"),
    ])
    func theCommandTheyLeadToIsOffered(line: String, meant: String) {
        #expect {
            try TextCommandParser.parse(line)
        } throws: { error in
            (error as? UsageError)?.meant?.commandLine == meant
        }
    }

    /// "My Little Pony", "The Witcher 3": words that lead to no command's word are a game's name, searched whole.
    @Test(arguments: [
        ("!gg my little pony", "/search query:my little pony"), ("!gg the witcher 3", "/search query:the witcher 3"),
        ("!gg i love this", "/search query:i love this"),
    ])
    func otherwiseTheWordsAreSearched(line: String, search: String) {
        #expect {
            try TextCommandParser.parse(line)
        } throws: { error in
            (error as? UsageError)?.search?.commandLine == search
        }
    }
}
