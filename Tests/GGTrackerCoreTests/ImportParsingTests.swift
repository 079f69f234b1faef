import Foundation
import Testing

@testable import GGTrackerCore

/// Reading CSV exports: quoting, line numbers, formats told apart, times and dates as the exports write them.
@Suite("Reading CSV exports")
struct ImportParsingTests {
    static let header =
        "shelf,game,name,year,status,hours,percent,score,favorite,tags,note,review,review_spoiler,added_at,started_at,finished_at"

    @Test func aReviewOverSeveralLinesKeepsTheLineNumbersOfWhatFollows() throws {
        let text = """
            \(Self.header)\r
            library,igdb:1,Celeste,2018,completed,12.5,,9,true,"precise, platformer",,"Kind, ""hard""\r
            and short.",true,2026-01-02T03:04:05Z,,\r
            library,igdb:2,Hades,2020,sleeping,,,,false,,,,false,,,\r

            """
        #expect(
            throws: ImportFileError(
                line: 4, "status “sleeping” is not one of backlog, playing, paused, completed, dropped")
        ) {
            try ImportFormat.auto.items(from: Data(text.utf8))
        }
        let good = text.replacingOccurrences(of: "sleeping", with: "playing")
        let (format, items) = try ImportFormat.auto.items(from: Data(good.utf8))
        #expect(format == .ggtracker && items.count == 2)
        #expect(items[0].review == "Kind, \"hard\"\nand short." && items[0].reviewIsSpoiler)
        #expect(items[0].tags == ["precise", "platformer"] && items[0].favorite && items[0].hours == 12.5)
        #expect(items[0].addedAt == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(items[1].line == 4 && items[1].ref == GameRef(provider: "igdb", id: "2"))
    }

    @Test func aSpreadsheetsSemicolonsOrTabsAndDecimalCommasAreRead() throws {
        // As a spreadsheet saves CSV where a comma is the decimal point: a byte order mark, semicolons, "12,5".
        let semicolons =
            "\u{FEFF}" + Self.header.replacingOccurrences(of: ",", with: ";") + "\r\n"
            + "library;igdb:1;Celeste;2018;completed;12,5;;9;TRUE;precise, platformer;;\"Hard; short\";FALSE;;;\r\n"
        let (format, items) = try ImportFormat.auto.items(from: Data(semicolons.utf8))
        #expect(format == .ggtracker && items.count == 1)
        #expect(items[0].hours == 12.5 && items[0].favorite && items[0].review == "Hard; short")
        #expect(items[0].tags == ["precise", "platformer"])
        let tabs =
            Self.header.replacingOccurrences(of: ",", with: "\t") + "\n"
            + [
                "library", "igdb:2", "Hades", "2020", "playing", "3,5", "", "", "false", "", "", "", "false", "", "",
                "",
            ]
            .joined(separator: "\t") + "\n"
        let (_, tabbed) = try ImportFormat.auto.items(from: Data(tabs.utf8))
        #expect(tabbed.first?.hours == 3.5 && tabbed.first?.name == "Hades")
        // A comma file's quoted decimal comma too; a number with a comma and a point is no number.
        let commas = "\(Self.header)\nlibrary,igdb:1,Celeste,2018,playing,\"7,5\",,,false,,,,false,,,\n"
        #expect(try ImportFormat.auto.items(from: Data(commas.utf8)).1.first?.hours == 7.5)
        #expect(throws: ImportFileError(line: 2, "hours “1,000.5” is not a number from 0 to 20000")) {
            try ImportFormat.auto.items(from: Data(commas.replacingOccurrences(of: "7,5", with: "1,000.5").utf8))
        }
    }

    @Test(arguments: [
        "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "'=x", "''+x", "'", "''", "'plain", "plain",
        "", "a=b", "–dash",
    ])
    func textASpreadsheetWouldRunIsExportedInertAndReadBackExactly(_ text: String) throws {
        let exported = LibraryExport.inert(text)
        #expect(!"=+-@\t\r".contains(exported.first ?? "x"), "a spreadsheet would run “\(exported)”")
        #expect(LibraryExport.restored(exported) == text)
        // Through a whole file: the note column.
        let line = LibraryExport.csvLine([
            "library", "igdb:1", "Celeste", "2018", "playing", "", "", "", "false", "", exported, "", "false", "", "",
            "",
        ])
        let (_, items) = try ImportFormat.ggtracker.items(from: Data("\(Self.header)\r\n\(line)\r\n".utf8))
        #expect(items.first?.note == (text.isEmpty ? nil : text))
    }

    @Test func brokenFilesAreRefusedWithTheirLine() {
        #expect(throws: ImportFileError(line: 2, "a quoted field is never closed")) {
            try ImportFormat.auto.items(from: Data("\(Self.header)\nlibrary,,\"Celeste\n".utf8))
        }
        #expect(throws: ImportFileError(line: 2, "it has 3 fields where the header has 16")) {
            try ImportFormat.auto.items(from: Data("\(Self.header)\nlibrary,,Celeste\n".utf8))
        }
        #expect(throws: ImportFileError(line: 1, "the file is empty")) { try ImportFormat.auto.items(from: Data()) }
        #expect(throws: ImportFileError(line: 0, "the file is larger than 5 MB")) {
            try ImportFormat.auto.items(from: Data(count: ImportFormat.maxBytes + 1))
        }
    }

    @Test func howLongToBeatTimesAndDates() {
        #expect(HLTBCSV.duration("8:35:30") == 30_930)
        #expect(HLTBCSV.duration("46:30") == 2_790)
        #expect(HLTBCSV.duration("32") == 32)
        #expect(HLTBCSV.duration("--") == nil && HLTBCSV.duration("1:-2") == nil)
        #expect(ImportDates.parse("2024-02-09 15:54:48") == Date(timeIntervalSince1970: 1_707_494_088))
        #expect(ImportDates.parse("2024-02-09") == Date(timeIntervalSince1970: 1_707_436_800))
        #expect(ImportDates.parse("2024-13-09") == nil && ImportDates.parse("soon") == nil)
        // As a spreadsheet saves them again: the day first with dots; with slashes, when a number over 12 tells.
        #expect(ImportDates.parse("09.02.2024 15:54") == Date(timeIntervalSince1970: 1_707_494_040))
        let february13 = Date(timeIntervalSince1970: 1_707_782_400)
        #expect(ImportDates.parse("13/02/2024") == february13 && ImportDates.parse("02/13/2024") == february13)
        #expect(ImportDates.parse("02/02/2024") == Date(timeIntervalSince1970: 1_706_832_000))
        #expect(ImportDates.parse("03/04/2024") == nil && ImportDates.isAmbiguous("03/04/2024 10:00"))
        #expect(ImportDates.parse("09.02.24") == nil && !ImportDates.isAmbiguous("13/02/2024"))
        let line = "\(Self.header)\nlibrary,igdb:1,Celeste,2018,playing,,,,false,,,,false,03/04/2024,,\n"
        #expect(
            throws: ImportFileError(
                line: 2, "added_at “03/04/2024” could have its day or its month first; write it as 2024-02-09")
        ) {
            try ImportFormat.auto.items(from: Data(line.utf8))
        }
    }

    @Test func anImportNeverReplacesWhatThePlayerWrote() {
        let game = Game(id: 1, ref: GameRef(provider: "igdb", id: "1"), name: "Celeste")
        let then = Date(timeIntervalSince1970: 1_700_000_000)
        var mine = LibraryEntry(game: game, status: .completed, at: then)
        mine.score = 10
        mine.hours = 20
        mine.note = "B-sides next"
        var item = ImportItem(line: 2, name: "Celeste")
        item.status = .dropped
        item.score = 4
        item.hours = 12
        item.note = "meh"
        item.review = "Fine."
        item.tags = ["platformer"]
        let (kept, outcome) = item.merged(into: mine, game: game, at: then.addingTimeInterval(60))
        #expect(outcome == .updated)
        #expect(kept.status == .completed && kept.score == 10 && kept.hours == 20 && kept.note == "B-sides next")
        #expect(kept.review == "Fine." && kept.tags == ["platformer"])
        let (again, second) = item.merged(into: kept, game: game, at: then.addingTimeInterval(120))
        #expect(second == .already && again == kept)
        item.hours = 25
        #expect(item.merged(into: kept, game: game, at: then).0.hours == 25)
    }
}
