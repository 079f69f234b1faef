import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

typealias I = Interaction

@Suite("Slash commands through signed interactions")
struct DiscordCommandTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    var database: AppDatabase { harness.services.database }

    func entryCount() async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? 0 }
    }

    func ref(_ name: String) async throws -> String {
        let hits = try await harness.services.catalog.search(name, filter: .init(), limit: 1)
        return try #require(hits.first).game.ref.description
    }

    @Test func searchShowsCardsWithCoversAndMenusToAct() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("search", [I.option("query", "hollow knight")]))
            DiscordChecks.check(answer)
            #expect(answer.type == 4 && !answer.ephemeral)
            #expect(answer.embeds.first?["title"] as? String == "Hollow Knight (2017)")
            #expect(
                ((answer.embeds.first?["thumbnail"] as? [String: Any])?["url"] as? String)?.hasPrefix(
                    "https://images.igdb.com/") == true)
            let options = answer.selectOptions
            #expect(options.contains { $0.value.hasPrefix("gg:/add title:igdb:") })
            #expect(options.contains { $0.value.hasPrefix("gg:/wishlist add title:igdb:") })
        }
    }

    @Test func searchWithATypoStillFindsTheGame() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("search", [I.option("query", "hollow night")]))
            #expect(answer.embeds.first?["title"] as? String == "Hollow Knight (2017)")
        }
    }

    @Test func addStoresTheEntryAndAnswersPublicly() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(
                I.command(
                    "add", [I.option("title", "Hollow Knight"), I.option("status", "playing"), I.option("hours", 12.5)])
            )
            DiscordChecks.check(answer)
            #expect(!answer.ephemeral)
            #expect(answer.text.contains("Alice added Hollow Knight"))
            #expect(answer.text.contains("Playing") && answer.text.contains("12.5 h"))
        }
        let entry = try await database.library.entry(
            of: PlayerID("discord:111111111111111111"),
            game: try #require(
                try await harness.services.catalog.search("hollow knight", filter: .init(), limit: 1).first
            ).game.id)
        #expect(entry?.status == .playing)
        #expect(entry?.hours == 12.5)
    }

    /// Adding a game already there changes nothing; its button makes the change asked for, or offers the next step.
    @Test func addingAGameAlreadyThereOffersTheChangeAskedFor() async throws {
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            let again = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            #expect(again.ephemeral && again.content.contains("already in your library (✅ Completed)"))
            #expect(again.buttons.map(\.label) == ["Write a review"], "\(again.buttons)")
            let replay = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "playing"), I.option("hours", 3.0)]))
            let button = try #require(replay.buttons.first, "\(replay.content)")
            #expect(button.label == "Set to Playing · 3 h")
            #expect(
                try await database.library.library(
                    of: PlayerID("discord:111111111111111111"), status: nil, sort: .recent, includeMature: true,
                    page: 1,
                    pageSize: 10
                ).page.items.map(\.status) == [.completed])
            let changed = try await client.send(I.button(button.customID))
            #expect(changed.text.contains("Playing") && changed.text.contains("3 h"), "\(changed.text)")
        }
    }

    @Test func unknownGameGetsSuggestionsPrivatelyAndNothingIsStored() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("add", [I.option("title", "Zzyzx Qwerty Plumbus")]))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral)
            #expect(answer.content.contains("No game matches"))
        }
        #expect(try await entryCount() == 0)
    }

    @Test func namesakesAskTheUserToPickWithButtons() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("add", [I.option("title", "Doom")], nsfw: true))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral)
            #expect(answer.content.contains("Which one"))
            let labels = answer.buttons.map(\.label)
            #expect(labels.contains { $0.hasPrefix("Doom (1993)") } && labels.contains { $0.hasPrefix("Doom (2016)") })
            let pick = try #require(answer.buttons.first { $0.label.hasPrefix("Doom (1993)") })
            let added = try await client.send(I.button(pick.customID, nsfw: true))
            DiscordChecks.check(added)
            #expect(added.text.contains("added Doom (1993)"))
        }
        #expect(try await entryCount() == 1)
    }

    @Test func matureGameByNameIsRefusedWithTheReasonOutsideAgeRestrictedChannels() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("add", [I.option("title", "Half-Life 2")]))
            #expect(answer.ephemeral && answer.content.contains("Half-Life 2 (2004)** is age-restricted (ESRB M)"))
            let allowed = try await client.send(I.command("add", [I.option("title", "Half-Life 2")], nsfw: true))
            #expect(allowed.text.contains("added Half-Life 2"))
        }
        #expect(try await entryCount() == 1)
    }

    @Test(arguments: [
        (I.option("score", 11), "`score` must be between 1 and 10."),
        (I.option("score", 0), "`score` must be between 1 and 10."),
    ])
    func outOfRangeScoreIsRefusedWithTheRange(option: [String: Any], message: String) async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("rate", [I.option("title", "Celeste"), option]))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral)
            #expect(answer.content.contains(message))
        }
        #expect(try await entryCount() == 0)
    }

    @Test func negativeHoursAndBadPercentAreRefused() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            let hours = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("hours", -3.0)]))
            #expect(hours.ephemeral && hours.content.contains("`hours` must be between 0 and 20000"))
            let percent = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("percent", 101)]))
            #expect(percent.ephemeral && percent.content.contains("`percent` must be between 0 and 100"))
            let nothing = try await client.send(I.command("progress", [I.option("title", "Celeste")]))
            // Nothing to change asks where the player is with it; nothing is written.
            #expect(nothing.ephemeral && nothing.content.contains("Where are you with it?"), "\(nothing.content)")
        }
        let entries = try await database.writer.read { db in
            try Double.fetchOne(db, sql: "SELECT hours FROM library_entries")
        }
        #expect(entries == nil)
    }

    @Test func rateAddsAMissingGameAsCompletedAndSaysSo() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 7)]))
            DiscordChecks.check(answer)
            #expect(answer.text.contains("★★★½☆"))
            #expect(answer.text.contains("Added to Alice's library as completed."))
            // A wishlisted game rated is taken off the wishlist, and the card says so.
            _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", "Hades")])]))
            let wished = try await client.send(I.command("rate", [I.option("title", "Hades"), I.option("score", 9)]))
            #expect(wished.text.contains("Added to Alice's library as completed, and taken off the wishlist."))
        }
        let statuses = try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT status FROM library_entries")
        }
        #expect(statuses == ["completed", "completed"])
        #expect(
            try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM wishlist") } == 0)
    }

    @Test func reviewOfUnfinishedGameIsRefusedWithHowToComplete() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades"), I.option("status", "playing")]))
            let answer = try await client.send(
                I.command("review", [I.option("title", "Hades"), I.option("text", "Great")]))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral)
            #expect(answer.content.contains("once you have completed it"))
            #expect(answer.content.contains("status:completed"))
        }
        let review = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT review FROM library_entries")
        }
        #expect(review == nil)
    }

    @Test func reviewWithoutTextOpensAModalAndTheSubmitIsStored() async throws {
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            let modal = try await client.send(I.command("review", [I.option("title", "Celeste")]))
            DiscordChecks.check(modal)
            #expect(modal.type == 9)
            let customID = try #require(modal.data["custom_id"] as? String)
            let submitted = try await client.send(I.modal(customID, fields: ["text": "Tight, kind and **hard**."]))
            DiscordChecks.check(submitted)
            #expect(submitted.text.contains("Alice reviewed Celeste"))
            #expect(submitted.text.contains("Tight, kind and \\*\\*hard\\*\\*."))
        }
        let review = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT review FROM library_entries")
        }
        #expect(review == "Tight, kind and **hard**.")
    }

    @Test func overlongReviewIsRefusedWithTheLimit() async throws {
        try await harness.withClient { client in
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            let answer = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.option("text", String(repeating: "a", count: 4001))]))
            #expect(answer.ephemeral && answer.content.contains("the limit is 4000"))
        }
        let review = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT review FROM library_entries")
        }
        #expect(review == nil)
    }

    @Test func wishlistAddShowRemoveAndAddingMovesItOff() async throws {
        try await harness.withClient { client in
            let added = try await client.send(
                I.command("wishlist", [I.sub("add", [I.option("title", "Hollow Knight: Silksong")])]))
            DiscordChecks.check(added)
            #expect(added.text.contains("wishlisted Hollow Knight: Silksong"))
            let again = try await client.send(
                I.command("wishlist", [I.sub("add", [I.option("title", "Hollow Knight: Silksong")])]))
            #expect(again.ephemeral && again.content.contains("already on your wishlist"))
            let shown = try await client.send(I.command("wishlist", [I.sub("show")]))
            DiscordChecks.check(shown)
            #expect(shown.text.contains("Hollow Knight: Silksong"))
            // A page past the end says where the list ends.
            let past = try await client.send(I.command("wishlist", [I.sub("show", [I.option("page", 4)])]))
            #expect(past.ephemeral && past.content == "There is no page 4: the list has 1 page (1 game).")
            _ = try await client.send(I.command("add", [I.option("title", "Hollow Knight: Silksong")]))
            let after = try await client.send(I.command("wishlist", [I.sub("show")]))
            #expect(after.content.contains("wishlist is empty"))
            let gone = try await client.send(
                I.command("wishlist", [I.sub("remove", [I.option("title", "Hollow Knight: Silksong")])]))
            #expect(
                gone.ephemeral && gone.content.contains("is not on your wishlist: it is in your library (📚 Backlog)"))
            // An empty list says it is empty, whichever page is asked for.
            let emptyPast = try await client.send(I.command("wishlist", [I.sub("show", [I.option("page", 2)])]))
            #expect(emptyPast.content.contains("wishlist is empty"), "\(emptyPast.content)")
            // Someone else's empty wishlist is not for the caller to fill.
            _ = try await client.send(I.command("help", as: .bob))
            let theirs = try await client.send(
                I.command("wishlist", [I.sub("show", [I.user("user", .bob)])], as: .alice, resolvedUsers: [.bob]))
            #expect(theirs.ephemeral && theirs.content == "Bob's wishlist is empty.", "\(theirs.content)")
        }
    }

    @Test func favoriteTogglesAndTagsAreLimited() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let untagged = try await client.send(I.command("tag", [I.option("title", "Hades")]))
            #expect(untagged.ephemeral && untagged.content.contains("Tags on **Hades (2020)**: none yet"))
            let on = try await client.send(I.command("favorite", [I.option("title", "Hades")]))
            #expect(!on.ephemeral && on.text.contains("favorited Hades"))
            let off = try await client.send(I.command("favorite", [I.option("title", "Hades")]))
            #expect(off.ephemeral && off.content.contains("no longer a favorite"))
            let tagged = try await client.send(
                I.command("tag", [I.option("title", "Hades"), I.option("tags", "Roguelike, couch")]))
            #expect(
                tagged.content == "Added `roguelike`, `couch`. Tags on **Hades (2020)**: `roguelike`, `couch`",
                "\(tagged.content)")
            // The answer says what changed, and what could not.
            let removed = try await client.send(
                I.command("tag", [I.option("title", "Hades"), I.option("tags", "-couch, -co-op, roguelike")]))
            #expect(
                removed.content
                    == "Removed `couch`. `roguelike` was there already. `co-op` was not among them. Tags on **Hades (2020)**: `roguelike`",
                "\(removed.content)")
            let many = (1...20).map { "t\($0)" }.joined(separator: ",")
            let tooMany = try await client.send(I.command("tag", [I.option("title", "Hades"), I.option("tags", many)]))
            #expect(tooMany.ephemeral && tooMany.content.contains("at most 20 tags"))
            let long = try await client.send(
                I.command("tag", [I.option("title", "Hades"), I.option("tags", String(repeating: "x", count: 33))]))
            #expect(long.content.contains("Tags are 1–32 characters"))
            // Without tags, the game's tags are shown and nothing changes.
            let shown = try await client.send(I.command("tag", [I.option("title", "Hades")]))
            #expect(shown.ephemeral && shown.content == "Tags on **Hades (2020)**: `roguelike`", "\(shown.content)")
        }
        let tags = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT tags FROM library_entries")
        }
        #expect(tags == "[\"roguelike\"]")
    }

    @Test func noteIsPrivateAndLimited() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let saved = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("text", "try the spear")]))
            #expect(saved.ephemeral && saved.content.contains("Saved your note"))
            let long = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("text", String(repeating: "n", count: 1001))]))
            #expect(long.ephemeral && long.content.contains("the limit is 1000"))
        }
        let note = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT note FROM library_entries")
        }
        #expect(note == "try the spear")
    }

    @Test func removeAsksForConfirmationThenRemoves() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let bare = try await client.send(I.command("remove", [I.option("title", "Hades")]))
            #expect(bare.content == "Remove **Hades (2020)** from your library? This cannot be undone.")
            // The question names what goes with the entry.
            _ = try await client.send(I.command("rate", [I.option("title", "Hades"), I.option("score", 8)]))
            _ = try await client.send(
                I.command("progress", [I.option("title", "Hades"), I.option("hours", 12)]))
            _ = try await client.send(I.command("note", [I.option("title", "Hades"), I.option("text", "spear")]))
            let ask = try await client.send(I.command("remove", [I.option("title", "Hades")]))
            DiscordChecks.check(ask)
            #expect(ask.ephemeral && ask.content.contains("cannot be undone"))
            #expect(ask.content.hasPrefix("Remove **Hades (2020)** from your library, with your score, 12 h and note?"))
            #expect(try await entryCount() == 1)
            let confirm = try #require(ask.button("Remove it"))
            let done = try await client.send(I.button(confirm))
            DiscordChecks.check(done)
            #expect(done.type == 7)
            #expect(done.content.contains("Removed **Hades (2020)**"))
            // Pressed again, the button finds it gone.
            let again = try await client.send(I.button(confirm))
            #expect(again.content == "**Hades (2020)** was already gone.", "\(again.content)")
        }
        #expect(try await entryCount() == 0)
    }

    @Test func confirmTrueTypedWithTheCommandRemovesWithoutAButton() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let answer = try await client.send(
                I.command("remove", [I.option("title", "Hades"), I.option("confirm", true)]))
            #expect(answer.ephemeral && answer.content.contains("Removed **Hades (2020)**"))
            // Typed again, the game is simply not there.
            let again = try await client.send(
                I.command("remove", [I.option("title", "igdb:113112"), I.option("confirm", true)]))
            #expect(again.content == "**Hades (2020)** is neither in your library nor on your wishlist.")
        }
        #expect(try await entryCount() == 0)
    }

    @Test func listPagesTenAtATimeWithButtons() async throws {
        let names = [
            "Hollow Knight", "Celeste", "Hades", "Stardew Valley", "Portal 2", "Super Mario Odyssey", "Terraria",
            "Cuphead", "Ori and the Blind Forest", "Undertale", "Inside", "Limbo",
        ]
        try await harness.withClient { client in
            for name in names { _ = try await client.send(I.command("add", [I.option("title", name)])) }
            let first = try await client.send(I.command("list", [I.option("sort", "name")]))
            DiscordChecks.check(first)
            let description = try #require(first.embeds.first?["description"] as? String)
            #expect(description.split(separator: "\n").count == 10)
            #expect(first.text.contains("12 games") && first.text.contains("page 1/2"))
            let next = try #require(first.button("Next"))
            let second = try await client.send(I.button(next))
            DiscordChecks.check(second)
            #expect(second.type == 7)
            #expect(second.text.contains("page 2/2"))
            #expect((second.embeds.first?["description"] as? String)?.split(separator: "\n").count == 2)
            // Someone else paging through Alice's list sees Alice's list.
            let bobPages = try await client.send(I.button(next, as: .bob))
            #expect(bobPages.text.contains("Alice's library") && bobPages.text.contains("page 2/2"))
        }
    }

    @Test func listOfAnotherMemberAndOfSomeoneUnknown() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste")], as: .bob))
            let bobs = try await client.send(I.command("list", [I.user("user", .bob)], resolvedUsers: [.bob]))
            #expect(bobs.text.contains("Bob's library") && bobs.text.contains("Celeste"))
            let stranger = I.Person(id: "444444444444444444", name: "eve")
            let unknown = try await client.send(
                I.command("list", [I.user("user", stranger)], resolvedUsers: [stranger]))
            #expect(unknown.ephemeral && unknown.content.contains("Eve hasn't used GGTracker in this server yet"))
        }
    }
}
