import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// Hours typed wrong and corrected count as corrected wherever hours are added up over a time (a week's
/// leaderboard, a running challenge, the year in review), and a game removed is counted there no more.
@Suite("Hours and games taken back")
struct HoursCorrectionTests {
    typealias I = Interaction

    /// The player of `Interaction`'s commands, typing lines to the bot.
    static let alice = Invoker(
        platform: .discord, userID: "111111111111111111", displayName: "Alice", community: "discord:1")

    @Test func aMistypedNumberOfHoursCorrectedIsNotCountedTwice() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            func progress(_ title: String, _ hours: Double) async throws {
                let answer = try await client.send(
                    I.command("progress", [I.option("title", title), I.option("hours", hours)]))
                #expect(answer.status == .ok && !answer.ephemeral, "\(answer.text)")
            }
            _ = try await client.send(I.command("add", [I.option("title", "Celeste"), I.option("hours", 10.0)]))
            _ = try await client.send(
                I.createChallenge("Long Haul", goal: 2000, unit: "hours_played", ends: "in 2 weeks"))
            try await progress("Celeste", 1000)  // meant 12
            try await progress("Celeste", 12)
            _ = try await client.send(I.command("add", [I.option("title", "Hades"), I.option("hours", 5.0)]))
            try await progress("Hades", 3)
            try await progress("Hades", 2)  // lower than what the challenge counted of it: never below none

            let week = try await client.send(
                I.command("leaderboard", [I.option("metric", "hours"), I.option("period", "week")]))
            let board = try #require(week.embeds.first?["description"] as? String)
            #expect(board.contains("Alice — **14 h**"), "\(board)")
            let show = try await client.send(I.command("challenge", [I.sub("show")]))
            #expect(show.text.contains("4/2,000"), "\(show.text)")
            let recap = try await client.send(I.command("recap"))
            #expect(recap.text.contains("14 h played"), "\(recap.text)")
        }
    }
}

extension HoursCorrectionTests {
    /// A medal won on a mistyped number of hours goes when the number is corrected below the goal, with its news.
    @Test func aMedalWonOnMistypedHoursGoesWithTheCorrection() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste"), I.option("hours", 10.0)]))
            _ = try await client.send(I.createChallenge("Long Haul", goal: 100, unit: "hours_played"))
            let won = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("hours", 1000.0)]))
            #expect(won.text.contains("Long Haul"), "\(won.text)")
            let medaled = try await client.send(I.command("challenge", [I.sub("show")]))
            #expect(medaled.text.contains("🏅"), "\(medaled.text)")
            let corrected = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("hours", 12.0)]))
            #expect(
                corrected.content.contains("Your medal in “Long Haul” goes with the hours taken back."),
                "\(corrected.content)")
            let show = try await client.send(I.command("challenge", [I.sub("show")]))
            #expect(show.text.contains("2/100") && !show.text.contains("🏅"), "\(show.text)")
            let profile = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(profile.text.contains("Medals (0)"), "\(profile.text)")
            let news = try await client.send(I.command("activity"))
            #expect(!news.text.contains("medal"), "\(news.text)")
        }
    }

    /// A game removed takes with it what the periods counted of it, as the all-time figures lose it.
    @Test func aRemovedGameLeavesTheWeekAndTheNews() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(
                I.command(
                    "add", [I.option("title", "Celeste"), I.option("status", "completed"), I.option("hours", 10.0)]))
            _ = try await client.send(I.command("add", [I.option("title", "Hades"), I.option("hours", 3.0)]))
            func week(_ metric: String) async throws -> String {
                let board = try await client.send(
                    I.command("leaderboard", [I.option("metric", metric), I.option("period", "week")]))
                return board.text
            }
            #expect(try await week("hours").contains("Alice — **13 h**"))
            let removed = try await client.send(
                I.command("remove", [I.option("title", "Celeste"), I.option("confirm", true)]))
            #expect(removed.text.contains("Removed"), "\(removed.text)")
            #expect(try await week("hours").contains("Alice — **3 h**"))
            let completed = try await week("completed")
            #expect(!completed.contains("Alice — **1**"), "\(completed)")
            let news = try await client.send(I.command("activity"))
            #expect(!news.text.contains("Celeste") && news.text.contains("Hades"), "\(news.text)")
        }
    }

    /// A medal of a running challenge won with a game goes when the game is removed and the goal is no longer
    /// reached; the answer says so.
    @Test func aMedalWonWithARemovedGameGoesWithIt() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("One Done", goal: 1, unit: "games_completed"))
            let won = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            #expect(won.text.contains("One Done"), "\(won.text)")
            let removed = try await client.send(
                I.command("remove", [I.option("title", "Celeste"), I.option("confirm", true)]))
            #expect(
                removed.content.contains(
                    "Removed **Celeste (2018)** from your library. Your medal in “One Done” goes with it"),
                "\(removed.content)")
            let show = try await client.send(I.command("challenge", [I.sub("show")]))
            #expect(show.text.contains("0/1") && !show.text.contains("🏅"), "\(show.text)")
            let profile = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(profile.text.contains("Medals (0)"), "\(profile.text)")
        }
    }
}

/// Hours added to those played (`add_hours`, typed `+2h` or `hours:+2`) go on top of the total; `hours` stays the
/// total, as typed.
extension HoursCorrectionTests {
    @Test func hoursTypedWithAPlusAreAddedAndCountedAsPlayed() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let alice = Self.alice
        @Sendable func stored() async throws -> Double? {
            try await harness.services.database.writer.read { db in
                try Double.fetchOne(db, sql: "SELECT hours FROM library_entries")
            }
        }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste"), I.option("hours", 10.0)]))
            // Typed: "+2h" ending the title, and "hours:+3", are hours added.
            let typed = try await bot.respond(toLine: "!gg progress Celeste +2h", from: alice)
            #expect(typed.matrixContent(replyTo: nil).body.contains("2 h added: 12 h in all."), "\(typed)")
            #expect(try await stored() == 12)
            _ = try await bot.respond(toLine: "!gg progress Celeste hours:+3", from: alice)
            #expect(try await stored() == 15)
            // On Discord, the option.
            let added = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("add_hours", 1.5)]))
            #expect(added.status == .ok && !added.ephemeral, "\(added.text)")
            #expect(added.text.contains("1.5 h added: 16.5 h in all."), "\(added.text)")
            #expect(try await stored() == 16.5)
            // Minutes, typed ending the title as a session is logged.
            let session = try await bot.respond(toLine: "!gg progress Celeste +30min", from: alice)
            #expect(session.matrixContent(replyTo: nil).body.contains("30 min added: 17 h in all."), "\(session)")
            #expect(try await stored() == 17)
            _ = try await bot.respond(toLine: "!gg progress Celeste 18h30", from: alice)
            #expect(try await stored() == 18.5)
            // A total is still a total.
            _ = try await bot.respond(toLine: "!gg progress Celeste 20h", from: alice)
            #expect(try await stored() == 20)

            // More than a game holds, or both at once: refused, nothing changed.
            let tooMany = try await bot.respond(toLine: "!gg progress Celeste +19990h", from: alice)
            #expect(
                tooMany.text?.plainText
                    == "Celeste (2018) has 20 h: 20,010 h would be more than the 20,000 h a game holds.",
                "\(tooMany)")
            let both = try await client.send(
                I.command(
                    "progress",
                    [I.option("title", "Celeste"), I.option("hours", 5.0), I.option("add_hours", 2.0)]))
            #expect(both.ephemeral && both.text.contains("Give `hours` (the total) or `add_hours`, not both."))
            let outOfRange = try await bot.respond(toLine: "!gg progress Celeste +30000h", from: alice)
            #expect(
                outOfRange.text?.plainText
                    == "“+30000h” is out of range: add_hours takes a number from -20,000 to 20,000.", "\(outOfRange)")
            #expect(try await stored() == 20)

            // What was added counts as played this week, as any other hours do.
            let week = try await client.send(
                I.command("leaderboard", [I.option("metric", "hours"), I.option("period", "week")]))
            let board = try #require(week.embeds.first?["description"] as? String)
            #expect(board.contains("Alice — **20 h**"), "\(board)")
        }
    }
}

/// A percent added (`add_percent`, typed `+10%`, `+10 %` or `percent:+10`) goes on top of the share done, up to
/// 100%; `percent` stays the share done, as typed.
extension HoursCorrectionTests {
    @Test func aPercentTypedWithAPlusIsAddedToTheShareDone() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let alice = Self.alice
        @Sendable func stored() async throws -> [String] {
            try await harness.services.database.writer.read { db in
                try String.fetchAll(db, sql: "SELECT status || ' ' || COALESCE(percent, '-') FROM library_entries")
            }
        }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            let typed = try await bot.respond(toLine: "!gg progress Celeste +10%", from: alice)
            #expect(typed.matrixContent(replyTo: nil).body.contains("10% added: 10% done."), "\(typed)")
            #expect(try await stored() == ["playing 10"])
            _ = try await bot.respond(toLine: "!gg progress Celeste 40%", from: alice)
            _ = try await bot.respond(toLine: "!gg progress Celeste +15 %", from: alice)
            #expect(try await stored() == ["playing 55"])
            _ = try await bot.respond(toLine: "!gg progress Celeste percent:+5", from: alice)
            #expect(try await stored() == ["playing 60"])
            let added = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("add_percent", 20)]))
            #expect(added.text.contains("20% added: 80% done."), "\(added.text)")
            // Both at once, or nothing to add: refused, nothing changed.
            let both = try await client.send(
                I.command(
                    "progress", [I.option("title", "Celeste"), I.option("percent", 5), I.option("add_percent", 2)]))
            #expect(both.ephemeral && both.text.contains("Give `percent` (the share done) or `add_percent`, not both."))
            let none = try await bot.respond(toLine: "!gg progress Celeste +0%", from: alice)
            #expect(none.text?.plainText.hasSuffix(": nothing changed.") == true, "\(none)")
            #expect(try await stored() == ["playing 80"])
            // Past 100%: the game is done, and said so.
            let done = try await bot.respond(toLine: "!gg progress Celeste +30%", from: alice)
            #expect(
                done.matrixContent(replyTo: nil).body.contains("30% added: 100% done. Marked completed at 100%."),
                "\(done)")
            #expect(try await stored() == ["completed 100"])
            // A completed game with no percent kept (an import's) is counted done, not started over from none.
            try await harness.services.database.writer.write { db in
                try db.execute(sql: "UPDATE library_entries SET percent = NULL")
            }
            _ = try await bot.respond(toLine: "!gg progress Celeste +5%", from: alice)
            #expect(try await stored() == ["completed 100"])
        }
    }
}

/// Hours or a percent typed with a "-" (`-2h`, `hours:-2`, `-10%`; `add_hours` and `add_percent` below zero) are
/// taken off, never below none; where none were logged, nothing changes.
extension HoursCorrectionTests {
    @Test func hoursAndAPercentTypedWithAMinusAreTakenOff() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let alice = Self.alice
        @Sendable func stored(_ title: String = "Celeste") async throws -> [String] {
            try await harness.services.database.writer.read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT e.status || ' ' || COALESCE(e.hours, '-') || ' ' || COALESCE(e.percent, '-')
                        FROM library_entries e JOIN games g ON g.id = e.game_id WHERE g.name = ?
                        """, arguments: [title])
            }
        }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            // Nothing logged: nothing to take off.
            let nothing = try await bot.respond(toLine: "!gg progress Celeste -2h", from: alice)
            #expect(nothing.text?.plainText == "Celeste (2018) is already 📚 Backlog: nothing changed.", "\(nothing)")
            #expect(try await stored() == ["backlog - -"])
            _ = try await bot.respond(toLine: "!gg progress Celeste 10h 50%", from: alice)
            let typed = try await bot.respond(toLine: "!gg progress Celeste -2h", from: alice)
            #expect(typed.matrixContent(replyTo: nil).body.contains("2 h taken off: 8 h in all."), "\(typed)")
            #expect(try await stored() == ["playing 8.0 50"])
            _ = try await bot.respond(toLine: "!gg progress Celeste hours:-1h30", from: alice)
            #expect(try await stored() == ["playing 6.5 50"])
            // On Discord, the options below zero.
            let option = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("add_hours", -0.5)]))
            #expect(option.status == .ok && !option.ephemeral, "\(option.text)")
            #expect(option.text.contains("30 min taken off: 6 h in all."), "\(option.text)")
            let share = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("add_percent", -15)]))
            #expect(share.text.contains("15% taken off: 35% done."), "\(share.text)")
            let percent = try await bot.respond(toLine: "!gg progress Celeste -10%", from: alice)
            #expect(percent.matrixContent(replyTo: nil).body.contains("10% taken off: 25% done."), "\(percent)")
            #expect(try await stored() == ["playing 6.0 25"])
            // A sign typed apart from its number is still a sign: taken off or added, never a new total.
            let apart = try await bot.respond(toLine: "!gg progress Celeste - 2h", from: alice)
            #expect(apart.matrixContent(replyTo: nil).body.contains("2 h taken off: 4 h in all."), "\(apart)")
            _ = try await bot.respond(toLine: "!gg progress Celeste + 1 hour", from: alice)
            _ = try await client.send(I.command("progress", [I.option("title", "Celeste – 30 min")]))
            #expect(try await stored() == ["playing 4.5 25"])
            // Never below none.
            _ = try await bot.respond(toLine: "!gg progress Celeste -20h", from: alice)
            _ = try await bot.respond(toLine: "!gg progress Celeste percent:-50", from: alice)
            #expect(try await stored() == ["playing 0.0 0"])
            // No time logged and no share done are shown as none: no "0 h" nor "0%" on the list or the game card.
            let list = try await bot.respond(toLine: "!gg list", from: alice).matrixContent(replyTo: nil).body
            #expect(list.contains("🎮 Celeste (2018)\n") && !list.contains("0 h") && !list.contains("0%"), "\(list)")
            let card = try await bot.respond(toLine: "!gg game Celeste", from: alice).matrixContent(replyTo: nil).body
            #expect(card.contains("🎮 Playing\n") && !card.contains("0 h") && !card.contains("0%"), "\(card)")
            // A total below zero is refused, nothing stored.
            let total = try await bot.respond(toLine: "!gg add Hades hours:-2", from: alice)
            #expect(total.text?.plainText.hasPrefix("hours must be between 0 and 20000.") == true, "\(total)")
            #expect(try await stored("Hades").isEmpty)
            let tooMany = try await bot.respond(toLine: "!gg progress Celeste -30000h", from: alice)
            #expect(
                tooMany.text?.plainText
                    == "“-30000h” is out of range: add_hours takes a number from -20,000 to 20,000.", "\(tooMany)")
            // Signed hours are no part of a name, whichever game the whole title names ("portal +2h": Portal 2).
            _ = try await client.send(I.command("add", [I.option("title", "Portal 2"), I.option("hours", 3.0)]))
            let sequel = try await bot.respond(toLine: "!gg progress Portal +2h", from: alice)
            #expect(sequel.matrixContent(replyTo: nil).body.contains("2 h added: 5 h in all."), "\(sequel)")
            #expect(try await stored("Portal 2") == ["playing 5.0 -"])
        }
    }

    /// A sign written as people say it — "add 2 hours", "another 2h", "2 more hours", "plus 30 min", "minus 1h",
    /// "3 hours today" — adds or takes off, never sets a total; a mark after a number ("10/10!") is no part of it. A bare number after
    /// such a word stays in the name ("Tetris Plus 2").
    @Test func aSignWrittenInWordsAddsOrTakesOff() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        @Sendable func said(_ line: String) async throws -> String {
            try await bot.respond(toLine: line, from: Self.alice).matrixContent(replyTo: nil).body
        }
        _ = try await said("!gg add Celeste 10h")
        for (line, expected) in [
            ("!gg progress Celeste add 2 hours", "2 h added: 12 h in all."),
            ("!gg progress Celeste another 2h", "2 h added: 14 h in all."),
            ("!gg progress Celeste 2 more hours", "2 h added: 16 h in all."),
            ("!gg progress Celeste plus 30 min", "30 min added: 16.5 h in all."),
            ("!gg progress Celeste minus 1h", "1 h taken off: 15.5 h in all."),
            // Hours played today are a session.
            ("!gg progress Celeste played 3 hours today", "3 h added: 18.5 h in all."),
            ("!gg progress Celeste 30 min tonight", "30 min added: 19 h in all."),
        ] {
            let body = try await said(line)
            #expect(body.contains(expected), "\(line): \(body)")
        }
        let rated = try await said("!gg rate Celeste 10/10!")
        #expect(rated.contains("rated Celeste (2018)") && rated.contains("10/10"), "\(rated)")
        let named = try await said("!gg add tetris plus 2")
        #expect(named.contains("No game matches “tetris plus 2”"), "\(named)")
    }

    /// Signed hours ending `/add`'s title as Discord sends it: "+2h" is the hours played, "-2h" is refused with the
    /// range `hours` takes and nothing is stored — neither is ever part of the name (Hades II).
    @Test func signedHoursEndingAddsTitleAreHoursNeverAName() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let refused = try await client.send(I.command("add", [I.option("title", "hades -2h")]))
            #expect(refused.ephemeral, "\(refused.text)")
            #expect(refused.content.contains("“-2h” is out of range: `hours` takes a number from 0 to 20,000"))
            let typed = try await harness.services.bot.respond(
                toLine: "!gg add hades -2h", from: Self.alice)
            #expect(typed.matrixContent(replyTo: nil).body.contains("“-2h” is out of range"))
            // Without its unit, a signed number is hours too, never a name's.
            let bare = try await harness.services.bot.respond(toLine: "!gg add hades -2", from: Self.alice)
            #expect(bare.matrixContent(replyTo: nil).body.contains("is out of range: `hours` takes"), "\(bare)")
            // Another player's "+2": Hades played 2 h, never Hades II.
            let plus = try await harness.services.bot.respond(
                toLine: "!gg add hades +2", from: TextHintTests.matrixUser)
            let played = plus.matrixContent(replyTo: nil).body
            #expect(played.contains("alice added Hades (2020)") && played.contains("Playing · 2 h"), "\(played)")
            let added = try await client.send(I.command("add", [I.option("title", "hades +2h")]))
            #expect(!added.ephemeral, "\(added.text)")
            #expect(added.embeds.first.flatMap { $0["title"] as? String }?.contains("Hades (2020)") == true)
            #expect(added.text.contains("Playing · 2 h"), "\(added.text)")
        }
        let library = try await harness.services.database.library.library(
            of: PlayerID("discord:111111111111111111"), status: nil, sort: .recent, includeMature: true, page: 1,
            pageSize: 10)
        #expect(library.page.items.map(\.game.displayName) == ["Hades (2020)"])
    }
}
