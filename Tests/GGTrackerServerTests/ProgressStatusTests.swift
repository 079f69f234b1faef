import Foundation
import GGTrackerCore
import GGTrackerStorage
import GRDB
import Testing

@testable import GGTrackerServer

/// `/progress` without a status: hours or a percent on a backlog game start it, 100% completes it, and the card
/// says why the status moved.
@Suite("Progress that implies a status")
struct ProgressStatusTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    func stored() async throws -> (status: String, hours: Double?, percent: Int?)? {
        try await harness.services.database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT status, hours, percent FROM library_entries").map {
                ($0["status"], $0["hours"], $0["percent"])
            }
        }
    }

    func progress(_ client: TestHarness.Client, _ options: [[String: Any]]) async throws -> TestHarness.Client.Answer {
        let answer = try await client.send(I.command("progress", [I.option("title", "Celeste")] + options))
        DiscordChecks.check(answer)
        return answer
    }

    @Test func hoursStartABacklogGameAndAHundredPercentCompletesIt() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            // No time played yet: still on the backlog.
            let none = try await progress(client, [I.option("hours", 0.0)])
            #expect(none.text.contains("updated Celeste (2018)") && none.text.contains("📚 Backlog"))
            #expect(try await stored()?.status == "backlog")

            let started = try await progress(client, [I.option("hours", 3.0)])
            #expect(started.text.contains("is playing Celeste (2018)"), "\(started.text)")
            #expect(started.text.contains("🎮 Playing · 3 h"))
            #expect(started.text.contains("Moved from the backlog to playing"))
            #expect(try await stored()?.status == "playing")

            let more = try await progress(client, [I.option("percent", 60)])
            #expect(more.text.contains("updated Celeste (2018)") && !more.text.contains("Moved"))

            let done = try await progress(client, [I.option("percent", 100)])
            #expect(done.text.contains("completed Celeste (2018) 🎉"), "\(done.text)")
            #expect(done.text.contains("Marked completed at 100%") && done.text.contains("✅ Completed · 3 h"))
            #expect(!done.text.contains("100%\n") && done.buttons.map(\.label) == ["Write a review"])
            let row = try await stored()
            #expect(row?.status == "completed" && row?.percent == 100 && row?.hours == 3)

            // The feed tells the completion, as if it had been asked for.
            let feed = try await client.send(I.command("activity"))
            #expect(feed.text.contains("completed Celeste (2018)"), "\(feed.text)")
        }
    }

    @Test func addingWithHoursPlayedAddsAsPlaying() async throws {
        try await harness.withClient { client in
            let added = try await client.send(I.command("add", [I.option("title", "Celeste"), I.option("hours", 5.0)]))
            DiscordChecks.check(added)
            #expect(added.text.contains("🎮 Playing · 5 h"), "\(added.text)")
            #expect(added.text.contains("Added as playing, since you have played it."))
            #expect(added.buttons.map(\.label) == ["Mark completed"])
            #expect(try await stored()?.status == "playing")
            // Progress on a game not in the library offers to add it with what was asked.
            let missing = try await client.send(
                I.command("progress", [I.option("title", "Stardew Valley"), I.option("hours", 7.0)]))
            #expect(missing.ephemeral && missing.text.contains("is not in your library yet"), "\(missing.text)")
            let adding = try await client.send(I.button(try #require(missing.button("Add it"))))
            #expect(adding.text.contains("🎮 Playing · 7 h"), "\(adding.text)")
            // A status given is the one kept.
            let backlog = try await client.send(
                I.command(
                    "add", [I.option("title", "Hades"), I.option("status", "backlog"), I.option("hours", 2.0)]))
            #expect(backlog.text.contains("📚 Backlog · 2 h") && !backlog.text.contains("Added as"), "\(backlog.text)")
        }
    }

    @Test func aStatusGivenIsTheStatusKept() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            let paused = try await progress(client, [I.option("status", "paused"), I.option("hours", 2.0)])
            #expect(paused.text.contains("paused Celeste (2018)") && !paused.text.contains("Moved"))
            #expect(try await stored()?.status == "paused")
            let dropped = try await progress(client, [I.option("status", "dropped"), I.option("percent", 100)])
            #expect(dropped.text.contains("dropped Celeste (2018)") && !dropped.text.contains("Marked"))
            let row = try await stored()
            #expect(row?.status == "dropped" && row?.percent == 100)
        }
    }

    func row() async throws -> (score: Int?, hours: Double?, finished: Double?) {
        try await harness.services.database.writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT score, hours, finished_at FROM library_entries")
            return (row?["score"], row?["hours"], row?["finished_at"])
        }
    }

    /// Progress or a score that is what the entry already holds is said privately: nothing is posted or written.
    @Test func whatTheEntryAlreadyHoldsChangesNothing() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            let done = try await progress(client, [I.option("status", "completed"), I.option("hours", 12.0)])
            #expect(!done.ephemeral && done.text.contains("completed Celeste (2018)"))
            let written = try await row()
            let again = try await progress(client, [I.option("status", "completed")])
            #expect(
                again.ephemeral
                    && again.content == "**Celeste (2018)** is already ✅ Completed · 12 h: nothing changed.",
                "\(again.content)")
            let rated = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))
            #expect(!rated.ephemeral)
            let same = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))
            #expect(same.ephemeral && same.content.contains("You already rated **Celeste (2018)** ★★★★☆ 8/10"))
            let after = try await row()
            #expect(after.score == 8 && after.hours == 12 && after.finished == written.finished)
            // A change still goes through.
            let more = try await progress(client, [I.option("hours", 14.0)])
            #expect(!more.ephemeral && more.text.contains("✅ Completed · 14 h"), "\(more.text)")
        }
    }

    /// A command about a library game, given one on the wishlist, says so rather than "not in your library" alone,
    /// and offers the way on: added to the library (off the wishlist), or added as completed to review it.
    @Test func aWishlistedGameIsToldApartFromOneNowhere() async throws {
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("wishlist", [I.sub("add", [I.option("title", "Celeste")])]))
            let favorite = try await client.send(I.command("favorite", [I.option("title", "Celeste")]))
            DiscordChecks.check(favorite)
            #expect(
                favorite.ephemeral && favorite.text.contains("is on your wishlist, not in your library yet"),
                "\(favorite.text)")
            #expect(favorite.buttons.map(\.label) == ["Add to library"])
            let nowhere = try await client.send(I.command("favorite", [I.option("title", "Hades")]))
            #expect(nowhere.text.contains("is not in your library yet: add it first"), "\(nowhere.text)")
            #expect(nowhere.buttons.map(\.label) == ["Add it"])

            let review = try await client.send(
                I.command("review", [I.option("title", "Celeste"), I.option("text", "Kind and hard.")]))
            #expect(review.ephemeral && review.text.contains("(it is on your wishlist)"), "\(review.text)")
            #expect(try await stored() == nil, "nothing written")
            let added = try await client.send(I.button(try #require(review.button("Add as completed"))))
            #expect(added.text.contains("completed Celeste"), "\(added.text)")
            #expect(try await stored()?.status == "completed")
            let wishlist = try await client.send(I.command("wishlist", [I.sub("show")]))
            #expect(wishlist.text.contains("Your wishlist is empty"), "\(wishlist.text)")
        }
    }

    /// `/progress` of a game with nothing to change asks where the player is with it: privately, with where it
    /// stands and a button for each other status; a game not in the library is offered to add.
    @Test func progressWithNothingToChangeAsksWhereThePlayerIs() async throws {
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "playing"), I.option("hours", 5.0)]))
            let ask = try await client.send(I.command("progress", [I.option("title", "Celeste")]))
            DiscordChecks.check(ask)
            #expect(ask.ephemeral && ask.text.contains("🎮 Playing · 5 h. Where are you with it?"), "\(ask.text)")
            #expect(ask.buttons.map(\.label) == ["📚 Backlog", "⏸️ Paused", "✅ Completed", "🗑️ Dropped"])
            #expect(try await stored()?.status == "playing", "nothing written by asking")
            let done = try await client.send(I.button(try #require(ask.button("✅ Completed"))))
            #expect(done.text.contains("completed Celeste"), "\(done.text)")
            #expect(try await stored()?.status == "completed")
            let missing = try await client.send(I.command("progress", [I.option("title", "Hades")]))
            #expect(missing.ephemeral && missing.buttons.map(\.label) == ["Add it"], "\(missing.text)")
        }
    }

    /// Typed, a word that says what a number is goes with it: "50% done" is a percent, not a completion announced to
    /// the channel; "played 3h", "4 hours in", "6h played" are hours, "at 60%" a percent.
    @Test func wordsAroundATypedNumberSayWhatItIs() async throws {
        let bot = harness.services.bot
        func typed(_ line: String) async throws -> String {
            try await bot.respond(toLine: line, from: TextHintTests.matrixUser).matrixContent(replyTo: nil).body
        }
        // A game not in the library is offered added with the status its percent implies.
        let missing = try await typed("!gg progress Celeste 100%")
        #expect(missing.contains("reply !gg add title:igdb:26226 status:completed"), "\(missing)")
        _ = try await typed("!gg add Celeste")
        let half = try await typed("!gg progress Celeste 50% done")
        #expect(half.contains("is playing Celeste (2018)") && !half.contains("🎉"), "\(half)")
        var row = try await stored()
        #expect(row?.status == "playing" && row?.percent == 50)
        for (line, hours, percent) in [
            ("!gg progress Celeste played 3h", 3.0, 50), ("!gg progress Celeste 4 hours in", 4, 50),
            ("!gg progress Celeste at 60%", 4, 60), ("!gg progress Celeste 6h played", 6, 60),
            ("!gg progress Celeste 12h total", 12, 60), ("!gg progress Celeste 13 hours in total", 13, 60),
            ("!gg progress Celeste 14h in all", 14, 60), ("!gg progress Celeste 15 hours overall", 15, 60),
        ] {
            let body = try await typed(line)
            #expect(body.contains("updated Celeste (2018)"), "\(line): \(body)")
            row = try await stored()
            #expect(row?.hours == hours && row?.percent == percent && row?.status == "playing", "\(line)")
        }
        let paused = try await typed("!gg progress Celeste paused it")
        #expect(paused.contains("Celeste (2018)") && paused.contains("Paused"), "\(paused)")
        #expect(try await stored()?.status == "paused")
        let done = try await typed("!gg progress Celeste 100% done")
        #expect(done.contains("completed Celeste (2018) 🎉"), "\(done)")
        #expect(done.contains("Write a review: reply !gg review title:igdb:26226"), "\(done)")
        #expect(try await stored()?.status == "completed")
        // Once reviewed, a later change offers no review to write.
        _ = try await typed("!gg review Celeste The summit!")
        let later = try await typed("!gg progress Celeste 30h")
        #expect(later.contains("updated Celeste (2018)") && !later.contains("review"), "\(later)")
    }
}
