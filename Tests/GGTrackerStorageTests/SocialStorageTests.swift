import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Social storage and deliveries, on SQLite and PostgreSQL")
struct SocialStorageTests {
    func complete(
        _ game: Game, for player: PlayerID, hours: Double, in f: LibraryFixture, at now: Date
    )
        async throws -> EntryChange
    {
        try await f.database.library.updateEntry(of: player, game: game, community: "discord:1", at: now) { entry in
            var e = LibraryEntry(game: game, status: .completed, at: now)
            e.hours = hours
            e.score = 8
            entry = e
        }
    }

    @Test(arguments: Backend.all)
    func friendsChallengesAndMedals(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let (alice, bob) = (try await f.player("alice"), try await f.player("bob"))
        #expect(try await database.social.addFriend(alice.id, bob.id, at: f.now))
        #expect(try await !database.social.addFriend(alice.id, bob.id, at: f.now), "already friends")
        #expect(try await database.social.friends(of: alice.id).map(\.id) == [bob.id])

        guard
            case .created(let challenge) = try await database.social.createChallenge(
                in: "discord:1", name: "Spring Clean", goal: 2, unit: .gamesCompleted, startsAt: f.now,
                endsAt: f.now.addingTimeInterval(86_400), createdBy: alice.id)
        else {
            Issue.record("not created")
            return
        }
        guard
            case .duplicateName = try await database.social.createChallenge(
                in: "discord:1", name: "spring clean", goal: 5, unit: .custom, startsAt: f.now,
                endsAt: f.now.addingTimeInterval(86_400), createdBy: bob.id)
        else {
            Issue.record("a second challenge of the same name was created")
            return
        }
        #expect(try await database.social.challenges(in: "discord:1", joinedBy: nil).map(\.name) == ["Spring Clean"])
        #expect(try await database.social.challenges(in: "discord:1", joinedBy: bob.id).isEmpty)
        #expect(try await database.social.join(challenge, bob.id, at: f.now))
        #expect(try await !database.social.join(challenge, bob.id, at: f.now), "already in")
        #expect(try await database.social.challenges(in: "discord:1", joinedBy: bob.id).map(\.id) == [challenge.id])
        #expect(try await database.social.challenges(in: "discord:2", joinedBy: bob.id).isEmpty)

        let first = try await complete(f.celeste, for: alice.id, hours: 12.5, in: f, at: f.now.addingTimeInterval(60))
        #expect(first.medals.isEmpty)
        let second = try await complete(f.hades, for: alice.id, hours: 30, in: f, at: f.now.addingTimeInterval(120))
        #expect(second.medals == ["Spring Clean"])
        let standings = try await database.social.standings(challenge)
        #expect(standings.map(\.player.id) == [alice.id, bob.id])
        #expect(standings.map(\.progress) == [2, 0])
        #expect(try await database.social.medals(of: alice.id).map(\.challenge) == ["Spring Clean"])

        let board = try await database.social.leaderboard(in: "discord:1", metric: .hours, since: nil)
        #expect(Dictionary(uniqueKeysWithValues: board.map { ($0.0.id, $0.1) }) == [alice.id: 42.5, bob.id: 0])
        let completedToday = try await database.social.leaderboard(
            in: "discord:1", metric: .completed, since: f.now.addingTimeInterval(90))
        #expect(completedToday.first { $0.0.id == alice.id }?.1 == 1)
        // Hours lowered (a typo corrected) are taken back from what the period counted, never below none.
        _ = try await complete(f.hades, for: alice.id, hours: 10, in: f, at: f.now.addingTimeInterval(180))
        _ = try await complete(f.celeste, for: alice.id, hours: 0, in: f, at: f.now.addingTimeInterval(190))
        let week = try await database.social.leaderboard(in: "discord:1", metric: .hours, since: f.now)
        #expect(week.first { $0.0.id == alice.id }?.1 == 10)

        // Bob sees his friend's news first, newest first; the medal is news too.
        let feed = try await database.social.activity(in: "discord:1", of: nil, friendsOf: bob.id, limit: 20)
        #expect(feed.first?.kind == .medal && feed.first?.detail == "Spring Clean")
        #expect(feed.contains { $0.kind == .completed && $0.game?.name == "Hades" })
        let comparison = try await database.social.compare(alice.id, bob.id)
        #expect(comparison.leftCount == 2 && comparison.rightCount == 0 && comparison.shared.isEmpty)
        #expect(try await database.social.removeFriend(alice.id, bob.id))
        #expect(try await database.social.friends(of: alice.id).isEmpty)

        // A game removed takes its news and what the periods counted of it.
        let removed = try await database.library.removeEverywhere(alice.id, game: f.hades.id, at: f.now)
        #expect(removed.library && !removed.wishlist)
        let emptied = try await database.social.leaderboard(in: "discord:1", metric: .hours, since: f.now)
        #expect(emptied.first { $0.0.id == alice.id }?.1 == 0)
        let after = try await database.social.activity(in: "discord:1", of: alice.id, friendsOf: bob.id, limit: 20)
        #expect(!after.contains { $0.game?.name == "Hades" } && after.contains { $0.game?.name == "Celeste" })
    }

    /// News a member made in a direct message with the bot shows in each server they are a member of, and in no
    /// other; another server's news stays there.
    /// Whom to compare with: the server's other members, the one seen last first, none from another server.
    @Test(arguments: Backend.all)
    func recentMembersAreTheOthersSeenHereLastFirst(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        for (seconds, id) in ["alice", "bob", "carol"].enumerated() {
            _ = try await f.database.library.caller(
                f.invoker(id), at: f.now.addingTimeInterval(Double(seconds)), naming: nil)
        }
        _ = try await f.database.library.caller(f.invoker("dave", community: "discord:2"), at: f.now, naming: nil)
        let bob = PlayerID(platform: .discord, userID: "bob")
        let members = try await f.database.social.recentMembers(of: "discord:1", except: bob, limit: 5)
        #expect(members.map(\.displayName) == ["carol", "alice"])
        #expect(try await f.database.social.recentMembers(of: "discord:1", except: bob, limit: 1).count == 1)
    }

    @Test(arguments: Backend.all)
    func aMembersNewsFromADirectMessageShowsInTheirServers(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: f.now)
        let bob = try await database.library.recordPlayer(f.invoker("bob", community: "discord:2"), at: f.now)
        let direct = Invoker.directMessageCommunity(ofDiscordUser: "alice")
        _ = try await database.library.recordPlayer(f.invoker("alice", community: direct), at: f.now)
        _ = try await database.library.recordPlayer(f.invoker("bob", community: "discord:3"), at: f.now)
        for (player, game, community) in [
            (alice.id, f.celeste, direct), (bob.id, f.hades, "discord:3"), (alice.id, f.hades, "discord:1"),
        ] {
            _ = try await database.library.updateEntry(of: player, game: game, community: community, at: f.now) {
                $0 = LibraryEntry(game: game, status: .completed, at: f.now)
            }
        }
        func news(_ community: String) async throws -> [String] {
            try await database.social.activity(in: community, of: nil, friendsOf: alice.id, limit: 20)
                .filter { $0.kind == .completed }.map { "\($0.player.id.rawValue) \($0.game?.name ?? "")" }.sorted()
        }
        #expect(try await news("discord:1") == ["discord:alice Celeste", "discord:alice Hades"])
        #expect(try await news("discord:2").isEmpty, "bob's news from another server stays there")
        #expect(try await news("discord:3") == ["discord:bob Hades"])
        let own = try await database.social.activity(in: "discord:1", of: alice.id, friendsOf: bob.id, limit: 20)
        #expect(own.filter { $0.kind == .completed }.compactMap(\.game?.name).sorted() == ["Celeste", "Hades"])

        // Her news from the DM is announced where she is a member and a channel is set: not in the DM itself.
        for (community, channel) in [("discord:1", "801"), ("discord:2", "802"), (direct, "809")] {
            _ = try await database.library.updateSettings(of: community, announceChannel: channel, ageGate: nil)
        }
        let targets = try await database.social.announceChannels(ofMember: alice.id)
        #expect(targets == [AnnounceTarget(community: "discord:1", channel: "801")])
        _ = try await database.library.updateSettings(of: "discord:1", announceChannel: nil, ageGate: .off)
        let open = try await database.social.announceChannels(ofMember: alice.id)
        #expect(open == [AnnounceTarget(community: "discord:1", channel: "801", showsMature: true)])
    }

    /// Progress taken back below a running challenge's goal takes its medal and the medal's news back: hours
    /// lowered, and a negative custom amount.
    @Test(arguments: Backend.all)
    func progressTakenBackTakesTheMedalBack(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: f.now)
        func create(_ name: String, goal: Double, unit: ChallengeUnit) async throws -> Challenge {
            guard
                case .created(let challenge) = try await database.social.createChallenge(
                    in: "discord:1", name: name, goal: goal, unit: unit, startsAt: f.now,
                    endsAt: f.now.addingTimeInterval(86_400), createdBy: alice.id)
            else { throw CancellationError() }
            return challenge
        }
        _ = try await create("Long Haul", goal: 20, unit: .hoursPlayed)
        let laps = try await create("Laps", goal: 3, unit: .custom)
        let won = try await complete(f.hades, for: alice.id, hours: 30, in: f, at: f.now.addingTimeInterval(60))
        #expect(won.medals == ["Long Haul"])
        let reached = try await database.social.addProgress(
            laps, alice.id, amount: 5, community: "discord:1", at: f.now.addingTimeInterval(70))
        #expect(reached?.standing.medalAt != nil && reached?.medalTakenBack == false)
        #expect(Set(try await database.social.medals(of: alice.id).map(\.challenge)) == ["Long Haul", "Laps"])

        _ = try await complete(f.hades, for: alice.id, hours: 10, in: f, at: f.now.addingTimeInterval(80))
        #expect(try await database.social.medals(of: alice.id).map(\.challenge) == ["Laps"])
        let stillAbove = try await database.social.addProgress(
            laps, alice.id, amount: -1, community: "discord:1", at: f.now.addingTimeInterval(90))
        #expect(stillAbove?.medalTakenBack == false && stillAbove?.standing.medalAt != nil)
        let below = try await database.social.addProgress(
            laps, alice.id, amount: -2, community: "discord:1", at: f.now.addingTimeInterval(100))
        #expect(below?.medalTakenBack == true && below?.standing.medalAt == nil && below?.standing.progress == 2)
        #expect(try await database.social.medals(of: alice.id).isEmpty)
        let news = try await database.social.activity(in: "discord:1", of: alice.id, friendsOf: alice.id, limit: 20)
        #expect(!news.contains { $0.kind == .medal }, "\(news.map(\.kind))")

        // A game removed takes the medal its completion won (Hades, completed, counts one of the two).
        _ = try await create("Two Done", goal: 2, unit: .gamesCompleted)
        let done = try await complete(f.celeste, for: alice.id, hours: 1, in: f, at: f.now.addingTimeInterval(110))
        #expect(done.medals == ["Two Done"])
        let removed = try await database.library.removeEverywhere(alice.id, game: f.celeste.id, at: f.now)
        #expect(removed == Removal(library: true, wishlist: false, medalsTakenBack: ["Two Done"]))
        #expect(try await database.social.medals(of: alice.id).isEmpty)
    }

    @Test(arguments: Backend.all)
    func shareLinksSettingsAndLongButtons(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: f.now)
        _ = try await complete(f.celeste, for: alice.id, hours: 3, in: f, at: f.now)
        try await database.social.setShareToken("first", for: alice.id, at: f.now)
        try await database.social.setShareToken("second", for: alice.id, at: f.now)
        #expect(try await database.social.shareToken(of: alice.id) == "second")
        #expect(try await database.social.sharedLibrary(token: "first") == nil, "a replaced link stops working")
        let shared = try #require(try await database.social.sharedLibrary(token: "second"))
        #expect(shared.player.id == alice.id && shared.entries.map(\.game.name) == ["Celeste"])
        #expect(try await database.social.revokeShareToken(of: alice.id))
        #expect(try await database.social.sharedLibrary(token: "second") == nil)

        #expect(try await database.library.settings(of: "discord:1").ageGate == .strict)
        let changed = try await database.library.updateSettings(of: "discord:1", announceChannel: "c1", ageGate: .off)
        #expect(changed.ageGate == .off && changed.announceChannel == "c1")
        #expect(try await database.library.settings(of: "discord:1").announceChannel == "c1")
        // How the last post to the channel went: a failure kept, for the channel set only, until a post goes through
        // or the channel is set again.
        try await database.social.noteAnnouncement(in: "discord:1", channel: "c0", failure: "gone", at: f.now)
        #expect(try await database.library.settings(of: "discord:1").announceFailure == nil)
        try await database.social.noteAnnouncement(in: "discord:1", channel: "c1", failure: "no access", at: f.now)
        #expect(
            try await database.library.settings(of: "discord:1").announceFailure
                == AnnounceFailure(reason: "no access", at: f.now))
        try await database.social.noteAnnouncement(in: "discord:1", channel: "c1", failure: nil, at: f.now)
        #expect(try await database.library.settings(of: "discord:1").announceFailure == nil)
        try await database.social.noteAnnouncement(in: "discord:1", channel: "c1", failure: "no access", at: f.now)
        let again = try await database.library.updateSettings(of: "discord:1", announceChannel: "c1", ageGate: nil)
        #expect(again.announceFailure == nil && again.ageGate == .off)

        let key = try await database.deliveries.savePendingCommand("/search celeste platform:Switch")
        #expect(try await database.deliveries.pendingCommand(key) == "/search celeste platform:Switch")
        let updated = try await database.library.updateProfile(alice.id, [.nickname: "Al", .bio: "hi"])
        #expect(updated.nickname == "Al" && updated.bio == "hi" && updated.displayName == "alice")
        let cleared = try await database.library.updateProfile(alice.id, [.bio: String?.none])
        #expect(cleared.nickname == "Al" && cleared.bio == nil)
    }

    @Test(arguments: Backend.all)
    func aDeliveryIsAppliedOnceAndItsAnswerKept(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let (alice, bob) = (try await f.player("alice"), try await f.player("bob"))
        let claim = DeliveryClaim(id: "interaction-1")
        let added = try await database.claiming(claim).social.addFriend(alice.id, bob.id, at: f.now)
        #expect(added)
        #expect(try await database.deliveries.deliverySeen("interaction-1"))
        // The same delivery again (another attempt, perhaps on another replica) changes nothing.
        _ = try await database.social.removeFriend(alice.id, bob.id)
        await #expect(throws: DeliveryAlreadyApplied.self) {
            try await database.claiming(DeliveryClaim(id: "interaction-1")).social.addFriend(
                alice.id, bob.id, at: f.now)
        }
        #expect(try await database.social.friends(of: alice.id).isEmpty)

        // Only the attempt that owns the claim stores the answer; another's (or a mere "seen" mark) never replaces it.
        try await database.deliveries.recordProcessed(
            "interaction-1", response: Data("loser".utf8), claim: DeliveryClaim(id: "interaction-1"))
        #expect(try await database.deliveries.processedResponse("interaction-1") == nil)
        try await database.deliveries.recordProcessed("interaction-1", response: Data("answer".utf8), claim: claim)
        try await database.deliveries.recordProcessed("interaction-1", response: Data("seen".utf8))
        try await database.deliveries.recordAnswerIfNone("interaction-1", response: Data("fallback".utf8))
        #expect(try await database.deliveries.processedResponse("interaction-1") == Data("answer".utf8))
        #expect(try await database.deliveries.prune(now: Date().addingTimeInterval(2 * 86_400)) >= 1)
        #expect(try await !database.deliveries.deliverySeen("interaction-1"))
    }

    /// A Matrix edit's change marks the message it edits as changed, in the same transaction, so that no later edit
    /// of it runs again; a delivery that only answered (a command refused, a read) changed nothing.
    @Test(arguments: Backend.all)
    func anEditsChangeMarksTheMessageItEdits(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let (alice, bob) = (try await f.player("alice"), try await f.player("bob"))
        for (index, holding) in [false, true].enumerated() {
            let original = "matrix:event:$\(index)"
            let mark = "matrix:edited:$\(index)"
            try await database.deliveries.recordProcessed(original, response: Data("refused".utf8))
            #expect(try await !database.deliveries.changeMade(by: original, orMarked: mark))
            let claim = DeliveryClaim(id: "matrix:event:$edit\(index)", marks: mark)
            let command = database.claiming(claim, holdingChanges: holding)
            if index == 0 {
                _ = try await command.social.addFriend(alice.id, bob.id, at: f.now)
            } else {
                _ = try await command.social.removeFriend(alice.id, bob.id)
            }
            try await command.deliveries.recordProcessed(claim.id, response: Data("done".utf8), claim: claim)
            command.endReads()
            #expect(try await database.deliveries.changeMade(by: original, orMarked: mark), "\(holding)")
            #expect(try await database.deliveries.processedResponse(claim.id) == Data("done".utf8))
        }
        #expect(try await database.social.friends(of: alice.id).isEmpty)
    }

    @Test(arguments: Backend.all)
    func concurrentChangesToOneEntryAreAllKept(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: f.now)
        let game = f.celeste
        let now = f.now
        try await database.library.updateEntry(of: alice.id, game: game) { entry in
            var e = LibraryEntry(game: game, status: .playing, at: now)
            e.hours = 0
            entry = e
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    _ = try await database.library.updateEntry(
                        of: alice.id, game: game, community: "discord:1", at: now
                    ) {
                        let hours = $0?.hours ?? 0
                        $0?.hours = hours + 1
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await database.library.entry(of: alice.id, game: game.id)?.hours == 24)
    }
}

@Suite("A provider's rate limit shared by replicas, on SQLite and PostgreSQL")
struct SharedRateLimitTests {
    @Test(arguments: Backend.all)
    func aSecondHasOnlyItsBudgetOfCalls(_ backend: Backend) async throws {
        let database = try await backend.open()
        let second = Date(timeIntervalSince1970: 1_760_000_000.2)
        for _ in 0..<4 { #expect(try await database.leases.takeRequestSlot("igdb", perSecond: 4, at: second)) }
        #expect(try await !database.leases.takeRequestSlot("igdb", perSecond: 4, at: second.addingTimeInterval(0.7)))
        #expect(try await database.leases.takeRequestSlot("other", perSecond: 4, at: second), "budgets are by name")
        #expect(try await database.leases.takeRequestSlot("igdb", perSecond: 4, at: second.addingTimeInterval(0.8)))
    }

    @Test(arguments: Backend.all)
    func twoReplicasTogetherStayWithinTheRate(_ backend: Backend) async throws {
        let database = try await backend.open()
        // Two processes' limiters, each allowing 4 a second on its own, sharing one database.
        let replicas = (0..<2).map { _ in
            RateLimiter(perSecond: 4, maxInFlight: 8, cluster: (database, "igdb"))
        }
        let begin = Date()
        let starts = try await withThrowingTaskGroup(of: Date.self) { group in
            for limiter in replicas {
                for _ in 0..<8 { group.addTask { try await limiter.run { Date() } } }
            }
            return try await group.reduce(into: [Date]()) { $0.append($1) }
        }
        // 16 calls at 4 a second between them take the rest of the first second and three more (each limiter
        // alone would let its 8 through in about one); when each call starts on a busy machine is less exact.
        let elapsed = try #require(starts.max()).timeIntervalSince(begin)
        let perSecond = Dictionary(grouping: starts) { Int($0.timeIntervalSince1970) }.mapValues(\.count)
        #expect(starts.count == 16)
        #expect(elapsed >= 1.9, "16 calls in \(elapsed) s; per second: \(perSecond)")
    }
}
