import Foundation
import Testing

@testable import GGTrackerCore

/// `/activity` tells one player's news about one game in one line when the events follow each other closely.
@Suite("The activity feed's lines")
struct ActivityFeedTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let bob = Player(id: PlayerID("cli:bob"), displayName: "bob", createdAt: Date(timeIntervalSince1970: 0))
    let ann = Player(id: PlayerID("cli:ann"), displayName: "ann", createdAt: Date(timeIntervalSince1970: 0))
    let hades = Game(id: 1, ref: GameRef(provider: "igdb", id: "1"), name: "Hades")
    let celeste = Game(id: 2, ref: GameRef(provider: "igdb", id: "2"), name: "Celeste")

    func event(
        _ who: Player, _ kind: EventKind, _ game: Game?, _ minutesAgo: Double, score: Double? = nil
    )
        -> ActivityEvent
    {
        ActivityEvent(
            player: who, kind: kind, game: game, amount: score, detail: game == nil ? "Spring" : nil,
            at: t0.addingTimeInterval(-minutesAgo * 60))
    }

    func told(_ lines: [ActivityLine]) -> [String] {
        lines.map { "\($0.emoji) \($0.player.displayName) \($0.verbs) \($0.game?.name ?? $0.detail ?? "")" }
    }

    @Test func oneRateOfAnUnlistedGameIsOneLine() {
        // Newest first, as the store gives them: `/rate` of a game not yet listed records three events at once.
        let lines = ActivityLine.lines([
            event(bob, .rated, hades, 0, score: 8), event(bob, .completed, hades, 0), event(bob, .added, hades, 0),
        ])
        #expect(told(lines) == ["✅ bob completed and rated Hades"])
        #expect(lines.first?.score == 8 && lines.first?.at == t0)
    }

    @Test func closeEventsOfOneGameJoinOthersStayApart() {
        let lines = ActivityLine.lines([
            event(bob, .reviewed, hades, 1),
            event(bob, .rated, hades, 5, score: 9),
            event(bob, .rated, hades, 20, score: 6),
            event(bob, .started, hades, 50),
            event(bob, .added, hades, 50),
            event(bob, .added, celeste, 55),
            event(ann, .wishlisted, celeste, 56),
            event(bob, .medal, nil, 57),
            event(bob, .rated, celeste, 58, score: 7),
            // More than an hour before the one above: news of its own.
            event(bob, .added, celeste, 200),
        ])
        #expect(
            told(lines) == [
                "📝 bob started playing, rated and reviewed Hades",
                "➕ bob added Celeste",
                "🎁 ann wishlisted Celeste",
                "🏅 bob won a medal in Spring",
                "⭐ bob rated Celeste",
                "➕ bob added Celeste",
            ])
        // The newest score is the one shown; the line is as recent as its newest event.
        #expect(lines[0].score == 9 && lines[0].at == t0.addingTimeInterval(-60))
    }

    @Test func aChainOfCloseEventsIsMeasuredFromItsOldestSoFar() {
        // Each within the hour of the next, though the first and last are two hours apart: one session of play.
        let lines = ActivityLine.lines([
            event(bob, .completed, hades, 0), event(bob, .rated, hades, 55, score: 7), event(bob, .started, hades, 110),
        ])
        #expect(told(lines) == ["✅ bob completed and rated Hades"])
    }
}

@Suite("Names in a sentence")
struct SentenceTests {
    @Test func namesAreJoinedAsASentenceSaysThem() {
        #expect(Format.sentence([]) == "")
        #expect(Format.sentence(["alice"]) == "alice")
        #expect(Format.sentence(["alice", "bob"]) == "alice and bob")
        #expect(Format.sentence(["alice", "bob", "carol"]) == "alice, bob and carol")
    }
}
