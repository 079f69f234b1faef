import Testing

@testable import GGTrackerCore

@Suite("Formatting")
struct FormatTests {
    @Test(arguments: [(10, "★★★★★"), (7, "★★★½☆"), (1, "½☆☆☆☆"), (2, "★☆☆☆☆"), (9, "★★★★½")])
    func scoresShowAsFiveStarsWithHalves(score: Int, stars: String) {
        #expect(Format.stars(score) == stars)
    }

    @Test func countsAndHoursSetTheirThousandsApart() {
        #expect(Format.number(0) == "0" && Format.number(999) == "999" && Format.number(1000) == "1,000")
        #expect(Format.number(35_435) == "35,435" && Format.number(1_234_567) == "1,234,567")
        #expect(Format.number(-1200) == "-1,200")
        #expect(Format.count(1, "game") == "1 game" && Format.count(8067, "game") == "8,067 games")
        #expect(
            Format.hours(12_000) == "12,000 h" && Format.hours(1234.5) == "1,234.5 h" && Format.hours(2.25) == "2.3 h")
    }

    /// A reload of the bundled catalog rewrites every game: "35,435 updated", not "35435".
    @Test func aRefreshSummarySetsItsThousandsApart() {
        let summary = RefreshSummary(added: 1_200, updated: 35_435, skipped: 0, duration: 2.66)
        #expect(summary.sentence == "1,200 added, 35,435 updated, 0 skipped in 2.7 s")
    }

    @Test func truncateEndsWithAnEllipsis() {
        #expect(Format.truncate("abcdef", 4) == "abc…")
        #expect(Format.truncate("abc", 4) == "abc")
    }
}

@Suite("Chart labels")
struct ChartLabelTests {
    /// A genre's name in the narrow column of `/stats`: whole where it fits, shortened the way people say it.
    @Test(arguments: [
        ("Adventure", "Adventure"), ("Role-playing (RPG)", "Role-playing"), ("Real Time Strategy (RTS)", "RTS"),
        ("Turn-based strategy (TBS)", "TBS"), ("Hack and slash/Beat 'em up", "Hack and slash"),
        ("Quiz/Trivia", "Quiz/Trivia"), ("Card & Board Game", "Card & Board …"),
    ])
    func aGenreIsShortenedAsPeopleSayIt(name: String, label: String) {
        #expect(PlayerFeatures.chartLabel(name, width: 14) == label)
    }
}
