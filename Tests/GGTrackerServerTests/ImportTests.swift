import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GGTrackerServer

/// `/import steam` and `/import file`: a library brought in from Steam or a CSV export, through the router, with
/// Steam and Discord's file store played by a local stand-in.
@Suite("Importing a library")
struct ImportTests {
    typealias I = Interaction
    static let alice = PlayerID("discord:\(I.Person.alice.id)")
    static let bob = PlayerID("discord:\(I.Person.bob.id)")
    static let aliceSteam = "76561197960287930"
    static let carol = Invoker(platform: .cli, userID: "carol", displayName: "Carol", community: "cli:terminal")

    /// A harness whose Steam and file store are the stand-in.
    func withSteam(
        configure: @escaping @Sendable (inout AppConfig) -> Void = { _ in },
        _ body: @Sendable (FakeSteamState, TestHarness, TestHarness.Client, Int) async throws -> Void
    ) async throws {
        let state = FakeSteamState()
        try await fakeSteam(state).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness { config in
                config.steamAPIBase = "http://127.0.0.1:\(port)"
                config.steamAPIKey = FakeSteamState.key
                config.discordCDNBase = "http://127.0.0.1:\(port)/attachments/"
                configure(&config)
            }
            try await harness.withClient { client in try await body(state, harness, client, port) }
        }
    }

    /// `/import file` with a file Discord holds at `/attachments/…` (its `resolved.attachments`).
    static func importFile(
        _ name: String, _ data: Data, state: FakeSteamState, port: Int, format: String? = nil,
        as person: I.Person = .alice
    ) async throws -> [String: Any] {
        let path = "/attachments/700000000000000001/\(Int.random(in: 1_000_000...9_999_999))/\(name)"
        await state.store(path, data)
        var options: [[String: Any]] = [["name": "file", "type": 11, "value": "1100000000000000001"]]
        if let format { options.append(I.option("format", format)) }
        var interaction = I.command("import", [I.sub("file", options)], as: person)
        var data = interaction["data"] as! [String: Any]
        data["resolved"] = [
            "attachments": [
                "1100000000000000001": [
                    "id": "1100000000000000001", "filename": name, "size": data.count,
                    "url": "http://127.0.0.1:\(port)\(path)", "proxy_url": "http://127.0.0.1:\(port)\(path)",
                    "content_type": "text/csv; charset=utf-8",
                ]
            ]
        ]
        interaction["data"] = data
        return interaction
    }

    static func fixture(_ name: String) throws -> Data {
        let path = try #require(Bundle.module.path(forResource: name, ofType: "csv", inDirectory: "Fixtures"))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func library(_ harness: TestHarness, _ player: PlayerID) async throws -> [String: LibraryEntry] {
        let export = try await harness.services.database.library.export(of: player, at: Date())
        return Dictionary(uniqueKeysWithValues: (export?.entries ?? []).map { ($0.game.name, $0) })
    }

    @Test func aSteamLibraryComesInByAppIDThenByNameAndOnlyOnce() async throws {
        try await withSteam { state, harness, client, _ in
            await state.own(
                Self.aliceSteam,
                [
                    (620, "Portal 2", 754),  // by app id
                    (367520, "Hollow Knight™", 0),  // by app id, though Steam's name differs
                    (504230, "Celeste", 95),  // by name: no app id in the catalog
                    (1145360, "HADES", 0),  // by name, any case
                    (999999, "Orbital Tax Simulator", 30),  // not in the catalog
                ])
            await state.setVanity("alicesteam", Self.aliceSteam)
            // Alice rated Celeste and logged more hours than Steam has before importing.
            _ = try await client.send(
                I.command(
                    "add", [I.option("title", "Celeste"), I.option("status", "completed"), I.option("hours", 20)]))
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 10)]))

            let answer = try await client.send(
                I.command(
                    "import", [I.sub("steam", [I.option("steam_id", "https://steamcommunity.com/id/alicesteam/")])]))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral)
            #expect(answer.content.contains("Import from Steam"), "\(answer.content)")
            #expect(answer.content.contains("5 games read — 3 added, 0 updated, 1 already there, 1 not matched"))
            #expect(answer.content.contains("Not matched: “Orbital Tax Simulator”"))

            let shelves = try await Self.library(harness, Self.alice)
            #expect(shelves["Portal 2"]?.status == .playing && shelves["Portal 2"]?.hours == 12.6)
            #expect(shelves["Hollow Knight"]?.status == .backlog && shelves["Hollow Knight"]?.hours == nil)
            #expect(shelves["Hades"]?.status == .backlog)
            // What Alice wrote stays: her status, score and higher hours.
            #expect(shelves["Celeste"]?.status == .completed && shelves["Celeste"]?.score == 10)
            #expect(shelves["Celeste"]?.hours == 20)
            #expect(shelves.count == 4)
            // An import is not this week's news: it counts toward no activity feed.
            let feed = try await client.send(I.command("activity"))
            #expect(!feed.text.contains("Portal 2"), "\(feed.text)")

            // Steam's hours grew: only they change. Run again: nothing else does.
            await state.own(Self.aliceSteam, [(620, "Portal 2", 900), (367520, "Hollow Knight™", 0)])
            let again = try await client.send(
                I.command("import", [I.sub("steam", [I.option("steam_id", Self.aliceSteam)])]))
            #expect(again.content.contains("2 games read — 0 added, 1 updated, 1 already there"), "\(again.content)")
            #expect(try await Self.library(harness, Self.alice)["Portal 2"]?.hours == 15)
            let third = try await client.send(
                I.command("import", [I.sub("steam", [I.option("steam_id", Self.aliceSteam)])]))
            #expect(
                third.content.contains("0 added, 0 updated, 2 already there")
                    && third.content.contains("Nothing was changed"))
            // A profile's address works as well as its custom URL name.
            let byAddress = try await client.send(
                I.command(
                    "import",
                    [
                        I.sub(
                            "steam", [I.option("steam_id", "www.steamcommunity.com/profiles/\(Self.aliceSteam)/")])
                    ]))
            #expect(byAddress.content.contains("0 added, 0 updated, 2 already there"), "\(byAddress.content)")
            let requests = await state.requests
            #expect(
                requests.contains { $0.contains("include_appinfo=1") && $0.contains("include_played_free_games=1") })
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aSlowImportIsDeferredThenEditedWithProgressAndTheSummary() async throws {
        let edits = Received()
        try await fakeDiscordWebhooks(edits).test(.live) { discord in
            let discordPort = try #require(discord.port)
            try await withSteam(configure: { config in
                config.discordAPIBase = "http://127.0.0.1:\(discordPort)/api/v10"
                config.deferAfter = .milliseconds(100)
            }) { state, harness, client, _ in
                await state.own(Self.aliceSteam, [(620, "Portal 2", 754), (999999, "Orbital Tax Simulator", 30)])
                await state.setDelay(.milliseconds(1500))
                let answer = try await client.send(
                    I.command("import", [I.sub("steam", [I.option("steam_id", Self.aliceSteam)])]))
                #expect(answer.type == 5, "Steam is slow: the answer is deferred")
                var contents: [String] = []
                for _ in 0..<100 {
                    contents = await edits.requests.map {
                        ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["content"] as? String
                            ?? ""
                    }
                    if contents.contains(where: { $0.contains("Import from Steam") }) { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(contents.first?.contains("Importing from Steam: looked up 2 of 2 games") == true, "\(contents)")
                #expect(contents.last?.contains("2 games read — 1 added") == true, "\(contents)")
                #expect(try await Self.library(harness, Self.alice)["Portal 2"] != nil)
            }
        }
    }

    @Test func theServerHearsOfAnImportInOneLineAndTextPlatformsImportToo() async throws {
        try await withSteam { state, harness, _, _ in
            await state.own(
                Self.aliceSteam, (0..<40).map { (400_000 + $0, "Unknown \($0)", 0) } + [(620, "Portal 2", 60)])
            // A server whose announce channel is set (an admin sets one on Discord).
            _ = try await harness.services.database.library.updateSettings(
                of: Self.carol.community, announceChannel: "news", ageGate: nil)
            let reply = try await harness.services.bot.respond(
                toLine: "/import steam steam_id:\(Self.aliceSteam)", from: Self.carol)
            #expect(reply.visibility == .invokerOnly)
            #expect(reply.plainText().contains("41 games read — 1 added, 0 updated, 0 already there, 40 not matched"))
            #expect(reply.plainText().contains("and 35 more"))
            #expect(reply.announcements.map(\.channel) == ["news"])
            #expect(reply.announcements.first?.text?.plainText == "📥 Carol brought 1 game in from Steam.")
            #expect(reply.announcements.first?.cards.isEmpty == true)
        }
    }

    @Test func steamFailuresAreSaidPlainlyAndImportNothing() async throws {
        try await withSteam { state, harness, client, port in
            await state.makePrivate(Self.aliceSteam)
            func importing(_ account: String) async throws -> String {
                let answer = try await client.send(
                    I.command("import", [I.sub("steam", [I.option("steam_id", account)])]))
                #expect(answer.ephemeral)
                return answer.content
            }
            #expect(try await importing(Self.aliceSteam).contains("game details are private"))
            #expect(try await importing("nobody-here").contains("no profile with the custom URL “nobody-here”"))
            #expect(try await importing("not a name!").contains("is not a Steam account"))

            var wrongKey = harness.services.bot
            wrongKey.sources = LibrarySourcesClient(
                steamAPIBase: "http://127.0.0.1:\(port)", steamAPIKey: "wrong", attachmentBases: [])
            let refused = try await wrongKey.respond(
                toLine: "/import steam steam_id:\(Self.aliceSteam)", from: Self.carol)
            #expect(refused.plainText().contains("refused this server's API key (HTTP 403)"))

            var down = harness.services.bot
            var unreachable = LibrarySourcesClient(
                steamAPIBase: "http://127.0.0.1:1", steamAPIKey: FakeSteamState.key, attachmentBases: [])
            // Nothing listens there: the client keeps trying to connect until its time is up.
            unreachable.timeout = .seconds(2)
            down.sources = unreachable
            let silent = try await down.respond(
                toLine: "/import steam steam_id:\(Self.aliceSteam)", from: Self.carol)
            #expect(silent.plainText().contains("Steam did not answer"))
            #expect(silent.plainText().contains("Nothing was imported"))
            #expect(try await Self.library(harness, Self.alice).isEmpty)
        }
    }

    @Test func aGrouveeExportKeepsShelvesScoresReviewsAndPlayTime() async throws {
        try await withSteam { state, harness, client, port in
            let answer = try await client.send(
                try await Self.importFile("grouvee.csv", try Self.fixture("grouvee"), state: state, port: port))
            DiscordChecks.check(answer)
            #expect(answer.content.contains("Import from Grouvee (grouvee.csv)"), "\(answer.content)")
            #expect(answer.content.contains("4 games read — 3 added, 0 updated, 0 already there, 1 not matched"))
            let shelves = try await Self.library(harness, Self.alice)
            let celeste = try #require(shelves["Celeste"])
            #expect(celeste.status == .completed && celeste.score == 10 && celeste.hours == 22.5)
            #expect(celeste.review == "Tight, kind, and hard.")
            #expect(celeste.finishedAt == ISO8601DateFormatter().date(from: "2019-03-02T00:00:00Z"))
            #expect(shelves["Hades"]?.status == .playing && shelves["Hades"]?.score == 8)
            let export = try #require(try await harness.services.database.library.export(of: Self.alice, at: Date()))
            #expect(export.wishlist.map(\.game.name) == ["Hollow Knight: Silksong"])
        }
    }

    @Test func aHowLongToBeatExportKeepsListsTimesAndNotes() async throws {
        try await withSteam { state, harness, client, port in
            let answer = try await client.send(
                try await Self.importFile("hltb.csv", try Self.fixture("hltb"), state: state, port: port))
            #expect(answer.content.contains("Import from HowLongToBeat (hltb.csv)"), "\(answer.content)")
            #expect(answer.content.contains("4 games read — 4 added"))
            let shelves = try await Self.library(harness, Self.alice)
            let knight = try #require(shelves["Hollow Knight"])
            #expect(knight.status == .completed && knight.hours == 27.5 && knight.score == 9)
            #expect(knight.review == "The best metroidvania." && knight.note == "Played with a controller")
            #expect(shelves["Elden Ring"]?.status == .playing && shelves["Elden Ring"]?.hours == 45.2)
            #expect(shelves["Disco Elysium"]?.status == .dropped && shelves["Disco Elysium"]?.hours == 6.3)
            #expect(shelves["Undertale"]?.status == .backlog)
        }
    }

    @Test func anExportImportedForSomeoneElseIsTheSameLibrary() async throws {
        try await withSteam { state, harness, client, port in
            try await ExportTests.aliceShelves(client)
            let alice = try #require(try await harness.services.database.library.export(of: Self.alice, at: Date()))
            let csv = try alice.data(.csv)
            let answer = try await client.send(
                try await Self.importFile("ggtracker.csv", csv, state: state, port: port, format: "ggtracker", as: .bob)
            )
            #expect(answer.content.contains("3 games read — 3 added"), "\(answer.content)")
            let bob = try #require(try await harness.services.database.library.export(of: Self.bob, at: Date()))
            // The same lines (in the order of the last change, which for Bob is the import's one moment).
            func lines(_ data: Data) -> [String] {
                String(decoding: data, as: UTF8.self).split(separator: "\r\n").map(String.init).sorted()
            }
            #expect(lines(try bob.data(.csv)) == lines(csv))
            #expect(bob.entries.count == 2 && bob.wishlist.count == 1)
            // Again: nothing changes.
            let again = try await client.send(
                try await Self.importFile("ggtracker.csv", csv, state: state, port: port, as: .bob))
            #expect(again.content.contains("0 added, 0 updated, 3 already there"), "\(again.content)")
        }
    }

    @Test func aMalformedFileNamesItsLineAndStoresNothing() async throws {
        try await withSteam { state, harness, client, port in
            var text = String(decoding: try Self.fixture("hltb"), as: UTF8.self)
            text = text.replacingOccurrences(of: "\"Undertale\",\"PC\"", with: "\"Undertale,\"PC\"")
            let answer = try await client.send(
                try await Self.importFile("hltb.csv", Data(text.utf8), state: state, port: port))
            #expect(answer.ephemeral)
            #expect(answer.content.contains("“hltb.csv” could not be read: line 5:"), "\(answer.content)")
            #expect(answer.content.contains("Nothing was imported"))
            let notCSV = try await client.send(
                try await Self.importFile(
                    "notes.txt", Data("just some words\nand more\n".utf8), state: state, port: port))
            #expect(notCSV.content.contains("line 1: this is not a Grouvee, HowLongToBeat or GGTracker CSV export"))
            // A file Discord says is larger than 5 MB is not downloaded.
            var large = try await Self.importFile("big.csv", Data("x".utf8), state: state, port: port)
            var data = large["data"] as! [String: Any]
            var resolved = data["resolved"] as! [String: Any]
            var files = resolved["attachments"] as! [String: [String: Any]]
            files["1100000000000000001"]?["size"] = 6 * 1_048_576
            resolved["attachments"] = files
            data["resolved"] = resolved
            large["data"] = data
            let tooLarge = try await client.send(large)
            #expect(
                tooLarge.content.contains("“big.csv” is 6.0 MB; an import takes files up to 5 MB"),
                "\(tooLarge.content)")
            #expect(try await Self.library(harness, Self.alice).isEmpty)
            // A format given that the file is not.
            let wrongFormat = try await client.send(
                try await Self.importFile(
                    "hltb.csv", try Self.fixture("hltb"), state: state, port: port, format: "grouvee"))
            #expect(
                wrongFormat.content.contains("line 1: a Grouvee export has the columns dates, giantbomb\\_id, id")
                    && wrongFormat.content.contains("which this file lacks"),
                "\(wrongFormat.content)")
            #expect(try await Self.library(harness, Self.alice).isEmpty)
            // Typed on a text platform, the file option says where a file can be sent.
            let typed = try await harness.services.bot.respond(
                toLine: "/import file file:grouvee.csv", from: Self.carol)
            #expect(typed.plainText().contains("attach it to the command on Discord"))
        }
    }

    @Test func theTerminalImportsAFileAndRefusesABrokenOneWhole() async throws {
        guard ServerProcess.binaryExists else { return }
        let database = Scratch.path("terminal-import.sqlite")
        let good = Scratch.path("good.csv")
        let broken = Scratch.path("broken.csv")
        let header = LibraryExport.csvColumns.joined(separator: ",")
        try Data("\(header)\nlibrary,,Celeste,2018,completed,12,,9,false,,,,false,,,\n".utf8)
            .write(to: URL(fileURLWithPath: good))
        try Data(
            "\(header)\nlibrary,,Hades,2020,playing,,,,false,,,,false,,,\nlibrary,,Undertale,2015,done,,,,false,,,,false,,,\n"
                .utf8
        ).write(to: URL(fileURLWithPath: broken))
        let imported = try await ServerProcess.commandInBackground(
            ["import", good, "--database", database, "--user", "discord:\(I.Person.alice.id)"])
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Import from GGTracker: 1 game read — 1 added"), "\(imported.output)")
        let refused = try await ServerProcess.commandInBackground(
            ["import", broken, "--database", database, "--user", "discord:\(I.Person.alice.id)"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("line 3: status “done” is not one of"), "\(refused.output)")
        #expect(refused.output.contains("Nothing was imported"))
        let badFormat = try await ServerProcess.commandInBackground(
            ["import", good, "--database", database, "--user", "discord:1", "--format", "excel"])
        #expect(badFormat.status != 0 && badFormat.output.contains("--format is auto, grouvee, hltb or ggtracker"))
        let noPlatform = try await ServerProcess.commandInBackground([
            "import", good, "--database", database, "--user", "ada",
        ])
        #expect(noPlatform.status != 0 && noPlatform.output.contains("Give --user as platform:id"))
        let export = try await ServerProcess.commandInBackground(
            ["export", "--database", database, "--user", "discord:\(I.Person.alice.id)"])
        #expect(export.output.contains(",Celeste,2018,completed,12,,9,") && !export.output.contains("Hades"))
    }
}

extension ImportTests {
    /// Where no file can come with a command, `/import file` says the way that works there, for this player.
    @Test func importFileTypedWithoutAFileSaysHowFromTheServer() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        let slack = try await bot.respond(toLine: "/gg import file", from: TextHintTests.slackUser)
        let text = slack.text?.plainText(now: Date()) ?? ""
        #expect(text.contains("ggtracker import FILE --user \(TextHintTests.slackUser.player.rawValue)"), "\(text)")
        #expect(text.contains("import steam") && text.contains("Nothing was imported."), "\(text)")
        #expect(text.contains("(SLACK_BOT_TOKEN) so that /import file takes a CSV you share"), "\(text)")
        // On Matrix a file can be sent to the room, and the command answer it.
        let matrix = try await bot.respond(toLine: "!gg import file", from: TextHintTests.matrixUser)
        let body = matrix.matrixContent(replyTo: nil).body
        #expect(body.contains("then reply to it with `!gg import file`"), "\(body)")
        #expect(body.contains("`!gg import steam`") && body.contains("Nothing was imported."), "\(body)")
        let terminal = Invoker(platform: .cli, userID: "ada", displayName: "ada", community: "cli:terminal")
        let typed = try await bot.respond(toLine: "/import file format:hltb", from: terminal)
        #expect(
            typed.text?.plainText(now: Date()).contains("ggtracker import FILE --user cli:ada") == true, "\(typed)")
    }
}
