import Testing

@testable import GGTrackerCore

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
        // Stars out of five, as scores are shown, are the score out of 10 they mean.
        ("!gg rate Celeste 4/5", "Did you mean /rate title:Celeste score:8?"),
        ("!gg rate Celeste 4.5 stars", "Did you mean /rate title:Celeste score:9?"),
        ("!gg rate Celeste 3,5/5", "Did you mean /rate title:Celeste score:7?"),
        ("!gg rate Celeste ★★★★½", "Did you mean /rate title:Celeste score:9?"),
        ("!gg rate Celeste 1 star", "Did you mean /rate title:Celeste score:2?"),
        // A score as a fraction in words.
        ("!gg rate Celeste 8 out of 10", "Did you mean /rate title:Celeste score:8?"),
        ("!gg rate Celeste 4 out of 5", "Did you mean /rate title:Celeste score:8?"),
        ("!gg progress Portal 2 50%", "Did you mean /progress title:Portal 2 percent:50?"),
        ("!gg progress Portal 2 12h", "Did you mean /progress title:Portal 2 hours:12?"),
        ("!gg progress Portal 2 60 percent", "Did you mean /progress title:Portal 2 percent:60?"),
        ("!gg progress Portal 2 70pct", "Did you mean /progress title:Portal 2 percent:70?"),
        // Words that say what a number is go with it: "done" after a percent is no status.
        ("!gg progress Portal 2 50% done", "Did you mean /progress title:Portal 2 percent:50?"),
        ("!gg progress Portal 2 at 60%", "Did you mean /progress title:Portal 2 percent:60?"),
        ("!gg progress Portal 2 played 3h", "Did you mean /progress title:Portal 2 hours:3?"),
        ("!gg progress Portal 2 3 hours in", "Did you mean /progress title:Portal 2 hours:3?"),
        ("!gg progress Portal 2 for 2 hours 50% done", "Did you mean /progress title:Portal 2 hours:2 percent:50?"),
        // The hours a whole game took: "in 12 hours", "after 30h".
        (
            "!gg progress Portal 2 completed in 12 hours",
            "Did you mean /progress title:Portal 2 status:completed hours:12?"
        ),
        ("!gg progress Portal 2 after 30h", "Did you mean /progress title:Portal 2 hours:30?"),
        ("!gg progress Portal 2 beat it", "Did you mean /progress title:Portal 2 status:completed?"),
        ("!gg progress Portal 2 dropped it", "Did you mean /progress title:Portal 2 status:dropped?"),
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
        // A choice of two words written apart, and a day after "by" or "until".
        (
            "!gg challenge create Winter Sprint 3 games completed by jan 31",
            "Did you mean /challenge create name:Winter Sprint goal:3 unit:games_completed ends:jan 31?"
        ),
        (
            "!gg challenge create Winter Sprint 10 hours played until December 31, 2030",
            "Did you mean /challenge create name:Winter Sprint goal:10 unit:hours_played ends:December 31, 2030?"
        ),
    ])
    func aValidLastWordIsOffered(line: String, offered: String) {
        let text = message(line)
        #expect(text.contains(offered), "\(text)")
    }

    @Test(arguments: [
        // Out of range, no word left for the title, or a command still missing other options: nothing offered.
        "!gg rate Celeste 11", "/gg challenge create Winter 3",
        // Stars that are more than five.
        "!gg rate Celeste 6/5",
    ])
    func nothingIsOfferedThatWouldNotWork(line: String) {
        let text = message(line)
        #expect(text.contains("needs") && !text.contains("Did you mean"), "\(text)")
    }

    /// A fraction that is no score is named whole, and its last number is not taken for one ("score:10").
    @Test func aFractionThatIsNoScoreIsNamedWhole() throws {
        let text = message("!gg rate Celeste 12 out of 10")
        #expect(
            text == "/rate needs score: 1 to 10; shown as five stars. “12 out of 10” was read as part of the title: "
                + "score takes a whole number from 1 to 10.", "\(text)")
        // Only an option that reads a fraction reads one in words: before a goal, "out of" is a name's.
        let goal = try #require(CommandName.challenge.spec.subcommand("create")?.option("goal"))
        let read = try #require(CommandInvocation.trailingValue(of: "The best out of 3", for: goal))
        #expect(read.rest == "The best out of" && read.value == .number(3))
    }

    /// Values read from the end that still leave a required option out: that option is named, not the one the
    /// values were read for, with the line as it was read.
    @Test(arguments: [
        (
            "!gg challenge create Winter Sprint games_completed 3",
            "/challenge create needs ends: last day: 2030-05-31, Dec 31, in 2 weeks. "
                + "Read so far: /challenge create name:Winter Sprint goal:3 unit:games_completed."
        ),
        (
            "/gg challenge create Winter 3",
            "/challenge create needs unit: what counts. Read so far: /challenge create name:Winter goal:3."
        ),
    ])
    func whatIsStillMissingIsNamed(line: String, said: String) {
        #expect(message(line) == said)
    }

    /// A score left out is asked for (with the scores to pick from), not refused: Discord always sends one.
    @Test func aRateWithoutAScoreIsTypedWithNone() throws {
        #expect(
            try BotCommand(try TextCommandParser.parse("!gg rate Celeste"))
                == .library(.rate(.text("Celeste"), score: nil)))
    }

    /// A line that is only a score names no game: the score is kept and the game asked for (a number that is no
    /// score stays a title: there are games named so).
    @Test(arguments: [
        ("!gg rate 9", ["score": OptionValue.integer(9)]), ("!gg rate ★★★★", ["score": .integer(8)]),
        ("/gg rate 4.5 stars", ["score": .integer(9)]), ("!gg rate 8/10", ["score": .integer(8)]), ("!gg rate", [:]),
        ("!gg rate 11", ["title": .string("11")]),
        ("!gg rate 9 score:7", ["title": .string("9"), "score": .integer(7)]),
    ])
    func aScoreAloneLeavesTheGameToAsk(line: String, options: [String: OptionValue]) throws {
        try expectAsked(line, options: options, command: "rate")
    }

    /// The same for `/progress` and the others about one's own copy: a status, hours or a percent alone are kept and
    /// the game asked for; a bare number, which hours and a percent both take, stays the title.
    @Test(arguments: [
        ("!gg progress completed", ["status": OptionValue.string("completed")], "progress"),
        ("!gg progress 50%", ["percent": .integer(50)], "progress"),
        ("!gg progress 60 percent", ["percent": .integer(60)], "progress"),
        ("!gg progress 12h", ["hours": .number(12)], "progress"),
        ("!gg progress 50", ["title": .string("50")], "progress"),
        ("!gg progress", [:], "progress"), ("!gg note", [:], "note"), ("!gg favorite", [:], "favorite"),
        ("!gg remove", [:], "remove"), ("!gg review", [:], "review"),
        ("!gg review text:Loved it", ["text": .string("Loved it")], "review"),
    ])
    func aValueAloneLeavesTheGameToAsk(line: String, options: [String: OptionValue], command: String) throws {
        try expectAsked(line, options: options, command: command)
    }

    /// The line is read into `options`; without a title, it is typed as a question for the game of `command`.
    func expectAsked(_ line: String, options: [String: OptionValue], command: String) throws {
        let invocation = try TextCommandParser.parse(line)
        #expect(invocation.options == options)
        let typed = try BotCommand(invocation)
        if options["title"] == nil {
            #expect(typed == .library(.chooseGame(for: command)))
            #expect(typed.name == command, "counted under its own name")
        } else {
            #expect(typed != .library(.chooseGame(for: command)), "a title is looked up, not asked for")
        }
    }

    /// A number typed where a score goes but not one it takes says what was made of it and what the option takes.
    @Test(arguments: ["8.5", "11"])
    func aNumberTheOptionDoesNotTakeIsNamed(score: String) {
        let text = message("!gg rate Celeste \(score)")
        #expect(
            text.hasSuffix("“\(score)” was read as part of the title: score takes a whole number from 1 to 10."),
            "\(text)")
        // A number that may be stars says how to type it so.
        let stars = message("!gg rate Celeste 4.5")
        #expect(
            stars.hasSuffix("score takes a whole number from 1 to 10 (stars out of five: 4.5/5)."), "\(stars)")
        #expect(!message("!gg rate Celeste").contains("read as part of the title"))
        // No "0/5": a score of 0 would be refused too.
        #expect(message("!gg rate Celeste 0").hasSuffix("score takes a whole number from 1 to 10."))
        // Stars that are no whole or half ones up to five say how stars are typed.
        for stars in ["4.3 stars", "6 stars", "6/5", "4,2 star"] {
            for line in ["!gg rate Celeste \(stars)", "!gg rate \(stars)"] {
                #expect(
                    message(line).hasSuffix(
                        "“\(stars)” was read as part of the title: score takes whole or half stars from ½ to 5, like 4.5 stars, or a whole number from 1 to 10."
                    ), "\(message(line))")
            }
        }
        // Named as the option it was read into.
        let goal = message("!gg challenge create Summer custom 2027-01-01 4/5")
        #expect(goal.hasSuffix("“4/5” was read as part of the name: goal takes a number."), "\(goal)")
    }

    /// A number without its unit ending a title may be part of the name ("Portal 2"): not taken for a value (the
    /// command asks where the player is with the game), unless a status comes right before it.
    @Test func aBareNumberEndingATitleIsNotTakenForAValue() throws {
        #expect(
            try BotCommand(try TextCommandParser.parse("!gg progress Portal 2"))
                == .library(.progress(.text("Portal 2"), status: nil, hours: nil, percent: nil)))
        // After a status it is no part of the name: the first number option, hours (a percent is typed with "%").
        let after = message("!gg progress Hades completed 40")
        #expect(after.contains("Did you mean /progress title:Hades status:completed hours:40?"), "\(after)")
        let percent = message("!gg progress Hades playing 40%")
        #expect(percent.contains("Did you mean /progress title:Hades status:playing percent:40?"), "\(percent)")
    }
}
