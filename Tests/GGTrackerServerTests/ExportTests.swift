import Foundation
import GGTrackerCore
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import GGTrackerServer

/// `/export`: a private, one-download link to the caller's library as CSV or JSON, and `ggtracker export`.
@Suite("Exporting a library")
struct ExportTests {
    typealias I = Interaction

    /// Alice's shelves: Celeste finished with everything a player can write, Hades playing, Cuphead wished for.
    static func aliceShelves(_ client: TestHarness.Client) async throws {
        for command in [
            I.command(
                "add", [I.option("title", "Celeste"), I.option("status", "completed"), I.option("hours", 12.5)]),
            I.command("rate", [I.option("title", "Celeste"), I.option("score", 9)]),
            I.command(
                "review",
                [
                    I.option("title", "Celeste"), I.option("text", "Kind, \"hard\"\nand short."),
                    I.option("spoiler", true),
                ]),
            I.command("tag", [I.option("title", "Celeste"), I.option("tags", "precise, platformer")]),
            I.command("note", [I.option("title", "Celeste"), I.option("text", "B-sides next")]),
            I.command("favorite", [I.option("title", "Celeste")]),
            I.command("add", [I.option("title", "Hades"), I.option("status", "playing")]),
            I.command("wishlist", [I.sub("add", [I.option("title", "Cuphead")])]),
        ] {
            let answer = try await client.send(command)
            #expect(answer.status == .ok && !answer.text.contains("⚠️"), "\(answer.text)")
        }
    }

    static func link(_ answer: TestHarness.Client.Answer) throws -> String {
        let range = try #require(answer.content.range(of: "/export/"))
        return String(answer.content[range.lowerBound...].prefix(while: { !$0.isWhitespace }))
    }

    static func get(
        _ client: TestHarness.Client, _ path: String, agent: String = "Mozilla/5.0 (X11; Linux x86_64)"
    ) async throws -> (status: HTTPResponse.Status, type: String?, body: String) {
        try await client.client.execute(uri: path, method: .get, headers: [.userAgent: agent]) {
            ($0.status, $0.headers[.contentType], String(buffer: $0.body))
        }
    }

    @Test func aCSVLinkWorksOnceForItsOwnerOnly() async throws {
        let clock = Mutex(Date())
        let harness = try await TestHarness(now: { clock.withLock { $0 } })
        try await harness.withClient { client in
            try await Self.aliceShelves(client)
            let answer = try await client.send(I.command("export"))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral, "the link is the caller's alone")
            #expect(answer.content.contains("Your export (CSV) is ready: "))
            #expect(answer.content.contains("it works for one download and expires <t:"))
            let path = try Self.link(answer)
            #expect(path.hasSuffix(".csv") && path.count == "/export/".count + 32 + 4)

            // A chat platform's link preview does not spend the download.
            let preview = try await Self.get(client, path, agent: "Mozilla/5.0 (compatible; Discordbot/2.0)")
            #expect(preview.status == .forbidden)
            let wrongKind = try await Self.get(client, path.replacingOccurrences(of: ".csv", with: ".json"))
            #expect(wrongKind.status == .notFound, "the link is for the format asked for")

            let csv = try await Self.get(client, path)
            #expect(csv.status == .ok && csv.type == "text/csv; charset=utf-8")
            let lines = csv.body.components(separatedBy: "\r\n")
            #expect(
                lines.first
                    == "shelf,game,name,year,status,hours,percent,score,favorite,tags,note,review,review_spoiler,added_at,started_at,finished_at"
            )
            let celeste = try #require(lines.first { $0.contains(",Celeste,") })
            #expect(
                celeste.hasPrefix(
                    "library,igdb:26226,Celeste,2018,completed,12.5,,9,true,\"precise, platformer\",B-sides next,\"Kind, \"\"hard\"\"\nand short.\",true,"
                ), "\(celeste)")
            #expect(lines.contains { $0.hasPrefix("library,igdb:113112,Hades,2020,playing,,,,false,,,,false,") })
            #expect(lines.contains { $0.hasPrefix("wishlist,") && $0.contains(",Cuphead,2017,,,,,false,,,,false,") })
            #expect(lines.last == "", "every line ends with CRLF")

            let again = try await Self.get(client, path)
            #expect(again.status == .notFound && again.body.contains("used already"))

            // Another player's export holds their own shelves only.
            let bobs = try await client.send(I.command("export", as: .bob))
            let bobCSV = try await Self.get(client, try Self.link(bobs))
            #expect(bobCSV.body.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 1)

            // A link not used in 15 minutes is gone.
            let late = try await client.send(I.command("export"))
            clock.withLock { $0 = $0.addingTimeInterval(15 * 60 + 1) }
            #expect(try await Self.get(client, try Self.link(late)).status == .notFound)
            #expect(try await Self.get(client, "/export/not-a-token.csv").status == .notFound)
        }
    }

    @Test func jsonHoldsTheSameAndTheTerminalWritesIt() async throws {
        let path = Scratch.path("export.sqlite")
        let harness = try await TestHarness(databasePath: path)
        try await harness.withClient { client in
            try await Self.aliceShelves(client)
            let answer = try await client.send(I.command("export", [I.option("format", "json")]))
            let json = try await Self.get(client, try Self.link(answer))
            #expect(json.status == .ok && json.type == "application/json")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
            #expect(document["format"] as? String == "ggtracker-export" && document["version"] as? Int == 1)
            // An empty list reads `[]`; a review's line break stays escaped inside its string.
            #expect(json.body.contains("\"tags\" : []") && !json.body.contains("[\n\n"), "\(json.body)")
            let library = try #require(document["library"] as? [[String: Any]])
            let celeste = try #require(
                library.first { ($0["game"] as? [String: Any])?["name"] as? String == "Celeste" })
            #expect((celeste["game"] as? [String: Any])?["ref"] as? String == "igdb:26226")
            #expect(celeste["status"] as? String == "completed" && celeste["hours"] as? Double == 12.5)
            #expect(celeste["score"] as? Int == 9 && celeste["favorite"] as? Bool == true)
            #expect(
                celeste["tags"] as? [String] == ["precise", "platformer"]
                    && celeste["note"] as? String == "B-sides next")
            #expect(
                celeste["review"] as? String == "Kind, \"hard\"\nand short."
                    && celeste["review_spoiler"] as? Bool == true)
            let wishes = try #require(document["wishlist"] as? [[String: Any]])
            #expect(wishes.map { ($0["game"] as? [String: Any])?["name"] as? String } == ["Cuphead"])
        }
        guard ServerProcess.binaryExists else { return }
        let terminal = try await ServerProcess.commandInBackground(
            ["export", "--database", path, "--user", "discord:\(I.Person.alice.id)"])
        #expect(terminal.status == 0, "\(terminal.output)")
        #expect(terminal.output.contains("library,igdb:26226,Celeste,2018,completed,12.5,,9,true,"))
        let unknown = try await ServerProcess.commandInBackground(
            ["export", "--database", path, "--user", "discord:1", "--format", "json"])
        #expect(unknown.status != 0 && unknown.output.contains("No player discord:1 in this database"))
        // Someone who used the terminal is named without a platform: the answer says how they are stored.
        let added = try await ServerProcess.commandInBackground(
            ["run", "--database", path, "/add title:igdb:26226", "--user", "ada"])
        #expect(added.status == 0, "\(added.output)")
        let bare = try await ServerProcess.commandInBackground(["export", "--database", path, "--user", "ada"])
        #expect(bare.status != 0 && bare.output.contains("Did you mean cli:ada"), "\(bare.output)")
        // `/export` in the terminal gives the link, which needs the server, and the line that writes the file now.
        let asked = try await ServerProcess.commandInBackground(["run", "--database", path, "/export", "--user", "ada"])
        #expect(asked.output.contains("The link works while ggtracker serve runs on this database."), "\(asked.output)")
        let line = "ggtracker export --user cli:ada --format csv --output library.csv"
        #expect(asked.output.contains("To write the file here instead: \(line)"), "\(asked.output)")
        let file = Scratch.path("ada.csv")
        let written = try await ServerProcess.commandInBackground(
            ["export", "--database", path, "--user", "cli:ada", "--format", "csv", "--output", file])
        #expect(written.output.contains("Wrote 1 library entry and 0 wishes to \(file)."), "\(written.output)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("library,igdb:26226,Celeste,2018,backlog,"))
        let shared = try await ServerProcess.commandInBackground(["run", "--database", path, "/share", "--user", "ada"])
        #expect(
            shared.output.contains("/u/") && shared.output.contains("while ggtracker serve runs"), "\(shared.output)")
    }
}
