import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// Admin ids name their platform, announce channels are channel ids, libraries are seen where their owner plays,
/// and a database that cannot be opened is named.
@Suite("Smaller hardening")
struct HardeningTests {
    @Test func adminIdsMustNameTheirPlatform() throws {
        #expect(throws: AppConfig.Invalid.self) {
            try AppConfig.load(file: nil, environment: ["GGTRACKER_ADMIN_IDS": "80351110224678912"])
        }
        let config = try AppConfig.load(
            file: nil, environment: ["GGTRACKER_ADMIN_IDS": "discord:80351110224678912, slack:U012AB3CD"])
        #expect(config.isConfiguredAdmin(platform: "discord", userID: "80351110224678912"))
        #expect(!config.isConfiguredAdmin(platform: "slack", userID: "80351110224678912"))
        #expect(!config.isConfiguredAdmin(platform: "matrix", userID: "U012AB3CD"))
        #expect(config.isConfiguredAdmin(platform: "slack", userID: "U012AB3CD"))
    }

    @Test func anAnnounceChannelMustBeAChannelId() async throws {
        // With a token, so the id itself is what is refused (nothing listens on port 9: nothing is posted).
        let harness = try await TestHarness { config in
            config.discordBotToken = "t"
            config.discordAPIBase = "http://127.0.0.1:9/api/v10"
        }
        try await harness.withClient { client in
            let bad = try await client.send(I.announceChannel("../../users/@me"))
            #expect(bad.ephemeral && bad.content.contains("is not a channel id"), "\(bad.content)")
        }
        let settings = try await harness.services.database.library.settings(of: "discord:900000000000000001")
        #expect(settings.announceChannel == nil)
        let announcer = DiscordAnnouncer(apiBase: "http://127.0.0.1:9/api/v10", botToken: "t")
        await #expect(throws: DiscordAnnouncer.Failure.self) {
            try await announcer.post(Announcement(channel: "1/../../guilds/2", cards: []))
        }
    }

    @Test func aLibraryIsVisibleOnlyWhereItsOwnerUsedTheBot() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let alice = Invoker(platform: .discord, userID: "111", displayName: "alice", community: "discord:guild-a")
        let bobElsewhere = Invoker(platform: .discord, userID: "222", displayName: "bob", community: "discord:guild-b")
        _ = try await bot.respond(toLine: "/add title:Celeste", from: alice)
        let elsewhere = try await bot.respond(toLine: "/list user:@111", from: bobElsewhere)
        #expect(elsewhere.visibility == .invokerOnly && elsewhere.text?.contains("in this server") == true)
        #expect(!(elsewhere.plainText().contains("Celeste")))
        let bobHere = Invoker(platform: .discord, userID: "222", displayName: "bob", community: "discord:guild-a")
        let here = try await bot.respond(toLine: "/list user:@111", from: bobHere)
        #expect(here.plainText().contains("Celeste"))
    }

    @Test func nicknamesAreEscapedInEmbedTitles() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("profile", [I.sub("set", [I.option("nickname", "**Big** _me_")])]))
            let profile = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(
                profile.embeds.first?["title"] as? String == "\\*\\*Big\\*\\* \\_me\\_",
                "\(profile.embeds.first ?? [:])")
        }
    }

    @Test func aDatabaseThatCannotBeOpenedIsNamed() {
        do {
            _ = try AppDatabase.open(path: "/proc/ggtracker-cannot/db.sqlite")
            Issue.record("opened a database under /proc")
        } catch {
            #expect("\(error)".contains("cannot open the database at /proc/ggtracker-cannot/db.sqlite"), "\(error)")
        }
    }
}
