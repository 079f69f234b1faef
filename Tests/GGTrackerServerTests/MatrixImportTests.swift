import Foundation
import GGTrackerCatalog
import GGTrackerCore
import Synchronization
import Testing

@testable import GGTrackerServer

extension MatrixTests {
    /// A file message (`m.file`) with the homeserver's `mxc://` address of the file; with `caption`, its body.
    static func file(
        _ name: String, media: String, size: Int, caption: String? = nil, id: String
    ) -> [String: Any] {
        var event = message(caption ?? name, id: id)
        event["content"] = [
            "msgtype": "m.file", "body": caption ?? name, "filename": name, "url": "mxc://localhost/\(media)",
            "info": ["mimetype": "text/csv", "size": size],
        ]
        return event
    }

    /// A player's games by name, from the database.
    static func shelves(_ harness: TestHarness, _ user: String) async throws -> [String: LibraryEntry] {
        let export = try await harness.services.database.library.export(of: PlayerID("matrix:\(user)"), at: Date())
        return Dictionary(uniqueKeysWithValues: (export?.entries ?? []).map { ($0.game.name, $0) })
    }

    /// A CSV export sent to the room comes in with `!gg import file` answering it, or as its caption: downloaded from
    /// the homeserver's authenticated media with the bot's token, once however often the command arrives.
    @Test func aCSVSentToTheRoomIsImportedByAnsweringIt() async throws {
        let csv = try ImportTests.fixture("grouvee")
        let harness = Mutex<TestHarness?>(nil)
        try await withBot(prepare: { built in harness.withLock { $0 = built } }) { client, received in
            let harness = try #require(harness.withLock { $0 })
            func answer() async throws -> String { try await Self.lastSent(received)["body"] as? String ?? "" }
            await received.add("media localhost/grouveeExport1", nil, csv)
            let file = Self.file("grouvee.csv", media: "grouveeExport1", size: csv.count, id: "$csv")
            await received.add("event $csv", nil, try JSONSerialization.data(withJSONObject: file))
            _ = try await put(client, txn: "80", events: [file])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.isEmpty, "a file alone is chat")

            let command = Self.reply("!gg import file", to: "$csv", id: "$import")
            _ = try await put(client, txn: "81", events: [command])
            let text = try await answer()
            #expect(text.contains("Import from Grouvee (grouvee.csv)"), "\(text)")
            #expect(text.contains("4 games read — 3 added, 0 updated, 0 already there, 1 not matched"), "\(text)")
            let shelves = try await Self.shelves(harness, "@alice:localhost")
            let celeste = try #require(shelves["Celeste"])
            #expect(celeste.status == .completed && celeste.score == 10 && celeste.review == "Tight, kind, and hard.")
            #expect(shelves["Hades"]?.status == .playing)

            // The same command delivered again, in another transaction, is answered once and imports nothing more.
            let sent = await received.requests.filter { $0.path.hasPrefix("send") }.count
            _ = try await put(client, txn: "82", events: [command])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == sent)

            // Bob sends the file with the command as its caption.
            var captioned = Self.file(
                "grouvee.csv", media: "grouveeExport1", size: csv.count, caption: "!gg import file format:grouvee",
                id: "$bob-csv")
            captioned["sender"] = "@bob:localhost"
            _ = try await put(client, txn: "83", events: [captioned])
            #expect(try await answer().contains("3 added"))
            #expect(try await Self.shelves(harness, "@bob:localhost")["Celeste"]?.status == .completed)
        }
    }

    /// Without a file to take, or with one the homeserver no longer has, the answer says what to do and nothing
    /// comes in.
    @Test func anImportWithoutItsFileSaysHowAndImportsNothing() async throws {
        let harness = Mutex<TestHarness?>(nil)
        try await withBot(prepare: { built in harness.withLock { $0 = built } }) { client, received in
            let harness = try #require(harness.withLock { $0 })
            func answer() async throws -> String { try await Self.lastSent(received)["body"] as? String ?? "" }
            _ = try await put(client, txn: "90", events: [Self.message("!gg import file", id: "$alone")])
            let alone = try await answer()
            #expect(alone.contains("Send your Grouvee, HowLongToBeat or GGTracker CSV export to this room as a file"))
            #expect(alone.contains("reply to it with `!gg import file`") && alone.contains("Nothing was imported."))

            // Answering a text message, not a file.
            let chat = Self.message("here is my list", id: "$chat")
            await received.add("event $chat", nil, try JSONSerialization.data(withJSONObject: chat))
            _ = try await put(client, txn: "91", events: [Self.reply("!gg import file", to: "$chat", id: "$on-chat")])
            #expect(try await answer().contains("Send your Grouvee"))

            // A file the homeserver no longer keeps.
            let gone = Self.file("old.csv", media: "deletedMedia", size: 120, id: "$gone")
            await received.add("event $gone", nil, try JSONSerialization.data(withJSONObject: gone))
            _ = try await put(client, txn: "92", events: [Self.reply("!gg import file", to: "$gone", id: "$on-gone")])
            let missing = try await answer()
            #expect(missing.contains("The file could not be downloaded (HTTP 404)"), "\(missing)")
            #expect(try await Self.shelves(harness, "@alice:localhost").isEmpty)
        }
    }

    /// Only `mxc://{server}/{id}` addresses are read as the homeserver's files.
    @Test func mediaAddressesAreReadStrictly() {
        #expect(LibrarySourcesClient.mxc("mxc://matrix.example.org/AbC_12-x")! == ("matrix.example.org", "AbC_12-x"))
        #expect(LibrarySourcesClient.mxc("mxc://localhost:8448/abc")! == ("localhost:8448", "abc"))
        for bad in ["mxc://evil/../secret", "mxc:///abc", "mxc://server/", "https://server/abc", "mxc://a/b/c"] {
            #expect(LibrarySourcesClient.mxc(bad) == nil, "\(bad)")
        }
    }
}
