import Foundation
import GGTrackerCatalog
import GGTrackerCore
import Logging
import Synchronization
import Testing

@testable import GGTrackerServer

extension SlackTests {
    /// A bot whose catalog has "Launch Day", out an hour ago, which Bob wishlisted two days before when `launch`
    /// is called; `launch` moves the clock to now and gives the release alerts to check.
    func withLaunchDay(
        _ body:
            @Sendable (
                FakeSlackFiles, TestHarness, TestHarness.Client, () async throws -> (Date, ReleaseAlerts)
            ) async throws -> Void
    ) async throws {
        let now = Date()
        let clock = Mutex(now.addingTimeInterval(-2 * 86_400))
        try await withFiles(now: { clock.withLock { $0 } }) { state, harness, client in
            let lines = """
                {"id":990031,"name":"Launch Day","first_release_date":\(Int(now.timeIntervalSince1970) - 3600)}
                """
            _ = try await CatalogImporter(database: harness.services.database).importData(Data(lines.utf8))
            try await harness.services.catalog.reloadVocabulary()
            try await body(state, harness, client) {
                _ = try await post(client, "/slack/commands", Self.command("wishlist add Launch Day", user: "U0BOB"))
                clock.withLock { $0 = now }
                var logger = Logger(label: "alerts")
                logger.logLevel = .critical
                return (now, ReleaseAlerts(services: harness.services, logger: logger))
            }
        }
    }

    /// The posts `chat.postMessage` received, waited for up to 5 s until there are `count`.
    static func channelPosts(_ state: FakeSlackFiles, count: Int) async throws -> [[String: Any]] {
        var posts = await state.channelPosts
        for _ in 0..<100 where posts.count < count {
            try await Task.sleep(for: .milliseconds(50))
            posts = await state.channelPosts
        }
        return posts
    }

    /// With the bot token, an admin makes the channel they type in the announce channel (`here`), which hears so at
    /// once, and a completion is announced there with `chat.postMessage`. A channel's name Slack sent without its id
    /// is refused with how to name it.
    @Test func anAdminAnnouncesInTheChannelTheyTypeIn() async throws {
        try await withFiles { state, harness, client in
            let named = Self.said(
                try await post(client, "/slack/commands", Self.command("admin settings announce_channel:#games")).1)
            #expect(named.contains("Slack sent “games” as a name, not a channel"), "\(named)")
            #expect(named.contains("announce_channel:here` in it. Nothing was changed."), "\(named)")
            let set = Self.said(
                try await post(client, "/slack/commands", Self.command("admin settings announce_channel:here")).1)
            #expect(set.contains("Settings saved.") && set.contains("<#C0GAMES>"), "\(set)")
            #expect(
                try await harness.services.database.library.settings(of: "slack:T0001").announceChannel == "C0GAMES")
            let welcome = try #require(try await Self.channelPosts(state, count: 1).first)
            #expect(welcome["channel"] as? String == "C0GAMES")
            #expect(Self.said(welcome).contains("GGTracker's news will be posted here"), "\(Self.said(welcome))")

            _ = try await post(client, "/slack/commands", Self.command("add Celeste --status completed", user: "U0BOB"))
            let posts = try await Self.channelPosts(state, count: 2)
            #expect(posts.count == 2)
            let post = try #require(posts.last)
            #expect(post["channel"] as? String == "C0GAMES")
            let blocks = Self.said(post)
            #expect(blocks.contains("completed Celeste (2018)"), "\(blocks)")
        }
    }

    /// A channel linked as Slack sends it with "Escape channels" on (`<#C…|name>`) is that channel; one the app is
    /// not a member of is refused with how to add it, and the channel set before stays.
    @Test func aLinkedChannelIsSetAndOneTheAppIsNotInIsRefused() async throws {
        try await withFiles { state, harness, client in
            let set = Self.said(
                try await post(
                    client, "/slack/commands", Self.command("admin settings announce_channel:<#C0NEWS|news>")
                ).1)
            #expect(set.contains("Settings saved.") && set.contains("<#C0NEWS>"), "\(set)")
            let welcome = try #require(try await Self.channelPosts(state, count: 1).first)
            #expect(welcome["channel"] as? String == "C0NEWS")

            let refused = Self.said(
                try await post(
                    client, "/slack/commands", Self.command("admin settings announce_channel:<#C0OUTSIDE|lounge>")
                ).1)
            #expect(
                refused.contains("The bot cannot post in <#C0OUTSIDE>: the app is not a member of it. Add it there"),
                "\(refused)")
            #expect(refused.contains("Nothing was changed."))
            #expect(
                try await harness.services.database.library.settings(of: "slack:T0001").announceChannel == "C0NEWS")
            // A tag written with "#" elsewhere is still the tag, not the channel Slack linked for it.
            _ = try await post(client, "/slack/commands", Self.command("add Celeste"))
            _ = try await post(client, "/slack/commands", Self.command("tag Celeste --tags co-op"))
            let listed = Self.said(try await post(client, "/slack/commands", Self.command("list <#C0COOP|co-op>")).1)
            #expect(listed.contains("Celeste") && listed.contains("co-op"), "\(listed)")
        }
    }

    /// A release alert the app cannot post (it left the announce channel) is shown to the workspace's admins, as a
    /// command's announcement is, and given back for the next check.
    @Test func aReleaseAlertThatCannotBePostedIsShownToAdmins() async throws {
        try await withLaunchDay { state, harness, client, launch in
            _ = try await harness.services.database.library.updateSettings(
                of: "slack:T0001", announceChannel: "C0OUTSIDE", ageGate: nil)
            let (now, alerts) = try await launch()
            #expect(try await alerts.check(at: now).isEmpty)
            let failure = try await harness.services.database.library.settings(of: "slack:T0001").announceFailure
            #expect(failure?.reason.contains("the app is not a member of it") == true, "\(String(describing: failure))")
            let shown = Self.said(try await post(client, "/slack/commands", Self.command("admin settings")).1)
            #expect(shown.contains("The last post there failed"), "\(shown)")
            // Given back: due again at the next check, and posted once the channel takes posts.
            _ = try await harness.services.database.library.updateSettings(
                of: "slack:T0001", announceChannel: "C0GAMES", ageGate: nil)
            #expect(try await alerts.check(at: now).count == 1)
            #expect(await state.channelPosts.count == 1)
        }
    }

    /// A post over Slack's rate limit (429 with `Retry-After`) is sent again after the wait: the announcement is not
    /// lost.
    @Test func anAnnouncementOverTheRateLimitIsPostedAfterTheWait() async throws {
        try await withFiles { state, harness, client in
            _ = try await harness.services.database.library.updateSettings(
                of: "slack:T0001", announceChannel: "C0BUSY", ageGate: nil)
            _ = try await post(client, "/slack/commands", Self.command("add Celeste --status completed"))
            let post = try #require(try await Self.channelPosts(state, count: 1).first)
            #expect(post["channel"] as? String == "C0BUSY")
            #expect(Self.said(post).contains("completed Celeste (2018)"), "\(Self.said(post))")
            #expect(await state.busy.isEmpty)
        }
    }

    /// Without the bot token nothing can be posted, and the setting says so.
    @Test func withoutTheBotTokenTheAnnounceChannelIsRefused() async throws {
        let harness = try await TestHarness(
            adminIDs: ["slack:U0ALICE"], configure: { $0.slackSigningSecret = Self.secret })
        try await harness.withClient { client in
            let refused = Self.said(
                try await post(client, "/slack/commands", Self.command("admin settings announce_channel:here")).1)
            #expect(
                refused.contains(
                    "This installation cannot post to Slack: its operator gives the app a bot token (SLACK_BOT_TOKEN"),
                "\(refused)")
            #expect(refused.contains("Nothing was changed."), "\(refused)")
            #expect(try await harness.services.database.library.settings(of: "slack:T0001").announceChannel == nil)
        }
    }

    /// A game members of the workspace wishlisted before it came out is announced in its announce channel, pinging
    /// exactly them.
    @Test func aReleaseAlertGoesToTheWorkspacesAnnounceChannel() async throws {
        try await withLaunchDay { state, harness, client, launch in
            _ = try await post(client, "/slack/commands", Self.command("admin settings announce_channel:here"))
            let (now, alerts) = try await launch()
            let sent = try await alerts.check(at: now)
            #expect(sent.count == 1, "\(sent)")
            let post = try #require(try await Self.channelPosts(state, count: 2).last)
            #expect(post["channel"] as? String == "C0GAMES")
            #expect(Self.said(post).contains("Out today: *Launch Day* — wishlisted by <@U0BOB>"), "\(Self.said(post))")
        }
    }
}
