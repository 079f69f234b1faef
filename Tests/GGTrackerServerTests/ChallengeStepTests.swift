import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// A change that counts toward a running challenge says where the player now stands in it, on either database.
@Suite("Challenge progress in the reply to a change")
struct ChallengeStepTests {
    static var databases: [String] {
        ["sqlite"] + (ReplicaTests.postgresURL == nil ? [] : ["postgres"])
    }

    func harness(_ database: String) async throws -> TestHarness {
        guard database == "postgres", let base = ReplicaTests.postgresURL else {
            return try await TestHarness()
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return try await TestHarness(databasePath: base + "?schema=\(schema)")
    }

    @Test(arguments: databases)
    func aChangeSaysWhereYouStandInTheChallengesItCounts(database: String) async throws {
        let harness = try await harness(database)
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("Winter Sprint", goal: 2, unit: "games_completed"))
            _ = try await client.send(I.createChallenge("Hour Club", goal: 20, unit: "hours_played"))
            _ = try await client.send(I.createChallenge("Reading Month", goal: 10))
            func progress(
                _ title: String, _ options: [[String: Any]], as who: I.Person = .alice
            ) async throws
                -> TestHarness.Client.Answer
            {
                let answer = try await client.send(
                    I.command("progress", [I.option("title", title)] + options, as: who))
                DiscordChecks.check(answer)
                return answer
            }

            for title in ["Celeste", "Hades"] {
                for who in [I.Person.alice, .bob] {
                    let added = try await client.send(I.command("add", [I.option("title", title)], as: who))
                    #expect(!added.content.contains("🏁"), "a game in the backlog counts toward nothing")
                }
            }

            // Finishing a game with hours counts toward both running challenges it measures, not the custom one.
            let finished = try await progress("Celeste", [I.option("status", "completed"), I.option("hours", 6.5)])
            #expect(finished.content.contains("🏁 **Winter Sprint**: 1/2 games completed"), "\(finished.content)")
            #expect(finished.content.contains("🏁 **Hour Club**: 6.5/20 hours played"), "\(finished.content)")
            #expect(!finished.content.contains("Reading Month"))
            #expect(finished.text.contains("Alice completed Celeste"))

            // More hours move only the hours; a score moves nothing, and says nothing of challenges.
            let hours = try await progress("Celeste", [I.option("hours", 9)])
            #expect(hours.content == "🏁 **Hour Club**: 9/20 hours played", "\(hours.content)")
            let rated = try await client.send(
                I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))
            #expect(!rated.content.contains("🏁"), "\(rated.content)")

            // Someone in no challenge hears nothing of them.
            let bobs = try await progress("Celeste", [I.option("status", "completed")], as: .bob)
            #expect(!bobs.content.contains("🏁"), "\(bobs.content)")

            // Reaching the goal is the medal, not a step.
            let medal = try await progress("Hades", [I.option("status", "completed")])
            #expect(medal.content.contains("🏅 Alice won a medal in “Winter Sprint”!"), "\(medal.content)")
            #expect(!medal.content.contains("🏁 **Winter Sprint**"), "\(medal.content)")
        }
    }

    /// Leaving takes a player off a challenge, but a medal won stays theirs, with their place on the board.
    @Test(arguments: databases)
    func leavingKeepsAMedalWon(database: String) async throws {
        let harness = try await harness(database)
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("One Down", goal: 1, unit: "games_completed"))
            let leave = { (who: I.Person) in
                I.command("challenge", [I.sub("leave", [I.option("name", "One Down")])], as: who)
            }
            _ = try await client.send(I.command("challenge", [I.sub("join", [I.option("name", "One Down")])], as: .bob))
            let left = try await client.send(leave(.bob))
            #expect(left.ephemeral && left.content == "You left “One Down”.", "\(left.content)")
            let again = try await client.send(leave(.bob))
            #expect(again.content == "You were not in “One Down”.", "\(again.content)")

            let won = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            #expect(won.content.contains("won a medal in “One Down”"), "\(won.content)")
            let kept = try await client.send(leave(.alice))
            #expect(kept.content.hasPrefix("You won the medal of “One Down”: it stays yours"), "\(kept.content)")
            let profile = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(profile.text.contains("Medals (1)") && profile.text.contains("🏅 One Down"), "\(profile.text)")
            let show = try await client.send(
                I.command("challenge", [I.sub("show", [I.option("name", "One Down")])]))
            #expect(show.text.contains("1/1 🏅") && show.text.contains("1 participant"), "\(show.text)")
        }
    }
}
