import Foundation
import GGTrackerCore
import Synchronization
import Testing

@testable import GGTrackerServer

/// A challenge is found by the name people type, not only its exact spelling: Matrix and Slack have no suggestions.
@Suite("Challenges by the name people type")
struct ChallengeNameTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    func challenge(_ sub: String, _ name: String, as who: I.Person = .alice) -> [String: Any] {
        I.command("challenge", [I.sub(sub, [I.option("name", name)])], as: who)
    }

    func participants(_ name: String) async throws -> Int {
        let social = harness.services.database.social
        let found = try #require(try await social.challenge(in: "discord:900000000000000001", named: name))
        return try await social.standings(found).count
    }

    @Test func aStartAWordOrATypoFindsTheChallengeAndSeveralAsk() async throws {
        try await harness.withClient { client in
            for name in ["Winter Sprint", "Winter Reading"] {
                _ = try await client.send(I.createChallenge(name, goal: 3))
            }
            let word = try await client.send(challenge("join", "sprint", as: .bob))
            DiscordChecks.check(word)
            #expect(word.text.contains("Bob joined: Winter Sprint"), "\(word.text)")
            let typo = try await client.send(challenge("show", "wintr reading", as: .bob))
            #expect(typo.text.contains("Winter Reading") && !typo.ephemeral, "\(typo.text)")
            let wordTypo = try await client.send(challenge("show", "sprnt", as: .bob))
            #expect(wordTypo.text.contains("Winter Sprint") && !wordTypo.ephemeral, "\(wordTypo.text)")

            // "winter" fits both: the bot asks, and joins nothing until a button is pressed.
            let both = try await client.send(challenge("join", "winter", as: .bob))
            DiscordChecks.check(both)
            #expect(both.ephemeral && both.content.contains("More than one challenge here fits “winter”"))
            #expect(both.buttons.map(\.label) == ["Winter Reading", "Winter Sprint"])
            #expect(try await participants("Winter Reading") == 1)
            let picked = try await client.send(I.button(both.buttons[0].customID, as: .bob))
            #expect(picked.text.contains("Bob joined: Winter Reading"), "\(picked.text)")
            #expect(try await participants("Winter Reading") == 2)

            let unknown = try await client.send(challenge("leave", "summer", as: .bob))
            #expect(unknown.ephemeral && unknown.content.contains("No challenge here is named “summer”"))
            let near = try await client.send(challenge("leave", "wntr sprnt", as: .bob))
            #expect(near.ephemeral && near.content.contains("Did you mean “Winter Sprint”?"), "\(near.content)")
            #expect(try await participants("Winter Sprint") == 2)
        }
    }

    /// A mistyped amount is taken back with a negative one, never below none; 0 is refused; typed on Matrix, the
    /// challenge's name then the amount ("!gg challenge progress laps -3") is read as both.
    @Test func aNegativeAmountTakesBackProgress() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("Laps", goal: 20))
            let progress = { (amount: Double) in
                I.command("challenge", [I.sub("progress", [I.option("name", "Laps"), I.option("amount", amount)])])
            }
            let won = try await client.send(progress(25))
            #expect(won.text.contains("reached the goal"), "\(won.text)")
            // Taken back below the goal, the medal goes too.
            let back = try await client.send(progress(-23))
            DiscordChecks.check(back)
            #expect(
                back.text.contains("Alice took back 23, and the medal") && back.text.contains("2/20")
                    && !back.text.contains("🏅"), "\(back.text)")
            let social = harness.services.database.social
            let medals = try await social.medals(of: PlayerID("discord:111111111111111111"))
            #expect(medals.isEmpty, "\(medals)")
            let laps = try #require(try await social.challenge(in: "discord:900000000000000001", named: "Laps"))
            // Out of range, or 0: refused with the reason, and nothing stored.
            let far = try await client.send(progress(-2_000_000))
            #expect(
                far.ephemeral && far.content.contains("`amount` must be between -1000000 and 1000000"), "\(far.content)"
            )
            let zero = try await client.send(progress(0))
            #expect(zero.ephemeral && zero.content.contains("An amount of 0 changes nothing"), "\(zero.content)")
            #expect(try await social.standings(laps).map(\.progress) == [2])
            let all = try await client.send(progress(-5))
            #expect(all.text.contains("Alice took back all their progress") && all.text.contains("0/20"), "\(all.text)")
            #expect(try await social.standings(laps).map(\.progress) == [0])
        }
        func matrix(_ line: String) async throws -> String {
            try await harness.services.bot.respond(toLine: line, from: TextHintTests.matrixUser)
                .matrixContent(replyTo: nil).body
        }
        _ = try await matrix("!gg challenge create name:Laps goal:20 unit:custom ends:in 2 weeks")
        let typed = try await matrix("!gg challenge progress laps 3")
        #expect(typed.contains("made progress") && typed.contains("3/20"), "\(typed)")
        let typedBack = try await matrix("!gg challenge progress laps -1")
        #expect(typedBack.contains("took back 1") && typedBack.contains("2/20"), "\(typedBack)")
        // The name alone: the amount is what is missing.
        let nameOnly = try await matrix("!gg challenge progress laps")
        #expect(nameOnly.contains("`!gg challenge progress` needs `amount`"), "\(nameOnly)")
    }

    /// Without a name, `show` and `progress` take the running challenge the caller is in; with none or several,
    /// the caller is told, or asked which one.
    @Test func withoutANameTheChallengeYouAreInIsMeant() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("Winter Sprint", goal: 3, unit: "games_completed"))
            _ = try await client.send(I.createChallenge("Reading Month", goal: 10))
            let progress = { (amount: Double, who: I.Person) in
                I.command("challenge", [I.sub("progress", [I.option("amount", amount)])], as: who)
            }
            let show = { (who: I.Person) in I.command("challenge", [I.sub("show")], as: who) }

            // Alice is in both, one of them custom: progress goes to that one.
            let added = try await client.send(progress(4, .alice))
            DiscordChecks.check(added)
            #expect(added.text.contains("Reading Month") && added.text.contains("4/10"), "\(added.text)")
            // Shown alone, two running challenges are listed, hers marked, each with a button.
            let listed = try await client.send(show(.alice))
            DiscordChecks.check(listed)
            #expect(listed.text.contains("Winter Sprint") && listed.text.contains("you're in"), "\(listed.text)")
            #expect(Set(listed.buttons.map(\.label)) == ["Winter Sprint", "Reading Month"])

            // Bob is in none: told so, and nothing is stored.
            let none = try await client.send(progress(2, .bob))
            #expect(none.ephemeral && none.content.contains("You are in no running custom challenge here"))
            _ = try await client.send(challenge("join", "winter sprint", as: .bob))
            let his = try await client.send(show(.bob))
            #expect(his.text.contains("Winter Sprint") && his.text.contains("2 participants"), "\(his.text)")

            // In two custom challenges, Bob is asked which, and nothing moves until he picks.
            _ = try await client.send(I.createChallenge("Marathon", goal: 5, as: .bob))
            _ = try await client.send(challenge("join", "reading month", as: .bob))
            let asked = try await client.send(progress(1, .bob))
            DiscordChecks.check(asked)
            #expect(asked.ephemeral && asked.content.contains("more than one running custom challenge"))
            #expect(Set(asked.buttons.map(\.label)) == ["Marathon", "Reading Month"])
            let social = harness.services.database.social
            let marathon = try #require(try await social.challenge(in: "discord:900000000000000001", named: "Marathon"))
            #expect(try await social.standings(marathon).map(\.progress) == [0])
            let picked = try await client.send(
                I.button(try #require(asked.buttons.first { $0.label == "Marathon" }).customID, as: .bob))
            #expect(picked.text.contains("Marathon") && picked.text.contains("1/5"), "\(picked.text)")
        }
    }

    /// A challenge's name suggestions list the caller's own first, except when joining.
    @Test func nameSuggestionsStartWithYourChallenges() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.createChallenge("Alpha Cup", goal: 3, as: .bob))
            _ = try await client.send(I.createChallenge("Zeta Cup", goal: 3))
            func suggested(_ sub: String, as who: I.Person) async throws -> [String] {
                let answer = try await client.send(
                    I.autocomplete("challenge", [I.sub(sub, [I.option("name", "cup", focused: true)])], as: who))
                DiscordChecks.check(answer)
                return (answer.data["choices"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            }
            #expect(try await suggested("show", as: .alice) == ["Zeta Cup", "Alpha Cup"])
            #expect(try await suggested("progress", as: .bob) == ["Alpha Cup", "Zeta Cup"])
            #expect(try await suggested("join", as: .alice) == ["Alpha Cup", "Zeta Cup"])
        }
    }

    /// The last day is read as people write it, counted from the bot's clock; a challenge runs to that day's end.
    @Test func theLastDayIsReadAsPeopleWriteIt() async throws {
        // Saturday, 28 November 2026, 10:30 UTC.
        let clock = Mutex(Date(timeIntervalSince1970: 1_795_861_800))
        let harness = try await TestHarness(now: { clock.withLock { $0 } })
        let social = harness.services.database.social
        @Sendable func lastDay(_ name: String) async throws -> String {
            let found = try #require(try await social.challenge(in: "discord:900000000000000001", named: name))
            return found.endsAt.addingTimeInterval(-86_400).formatted(.iso8601.year().month().day())
        }
        try await harness.withClient { client in
            let winter = try await client.send(I.createChallenge("Winter", goal: 3, ends: "Dec 31"))
            DiscordChecks.check(winter)
            #expect(winter.text.contains("until Dec 31, 2026"), "\(winter.text)")
            #expect(try await lastDay("Winter") == "2026-12-31")
            _ = try await client.send(I.createChallenge("Fortnight", goal: 3, ends: "in 2 weeks"))
            #expect(try await lastDay("Fortnight") == "2026-12-12")
            _ = try await client.send(I.createChallenge("Weekend", goal: 3, ends: "friday"))
            #expect(try await lastDay("Weekend") == "2026-12-04")
            // Passed this year: next year's.
            _ = try await client.send(I.createChallenge("Spring", goal: 3, ends: "March 1"))
            #expect(try await lastDay("Spring") == "2027-03-01")
            let past = try await client.send(I.createChallenge("Old", goal: 3, ends: "2026-11-27"))
            #expect(past.ephemeral && past.content.contains("`ends` is in the past"), "\(past.content)")
            let odd = try await client.send(I.createChallenge("Odd", goal: 3, ends: "31/12/2026"))
            #expect(odd.ephemeral && odd.content.contains("must be a day: 2030-05-31, Dec 31"), "\(odd.content)")
            #expect(try await social.challenge(in: "discord:900000000000000001", named: "Odd") == nil)
        }
    }
}
